// The onnxruntime-web-shaped API of twinrt-web under Node: tensors, metadata, errors as
// rejected Promises (after which the instance still works), release, two sessions at once,
// the proxy worker, and loading through package.json "exports" with no flags.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { InferenceSession, Tensor, env, TwinrtError } from '../../js/lib/node.js';
import { makeModel, tensorBytes } from './make-model.js';
import { ROOT } from './native.js';

env.wasm.numThreads = 1;

// y = x + b (b = [1, 2, 3]), x: float32[batch, 3]
const addModel = makeModel({
  inputs: [{ name: 'x', type: 'float32', dims: ['batch', 3] }],
  outputs: [{ name: 'y', type: 'float32', dims: ['batch', 3] }],
  initializers: [{ name: 'b', type: 'float32', dims: [3], values: [1, 2, 3] }],
  nodes: [{ op: 'Add', inputs: ['x', 'b'], outputs: ['y'] }],
});

// Two outputs of different types: s = a * 2 (int64), n = Not(c) (bool)
const twoOutputs = makeModel({
  inputs: [{ name: 'a', type: 'int64', dims: [2] }, { name: 'c', type: 'bool', dims: [2] }],
  outputs: [{ name: 's', type: 'int64', dims: [2] }, { name: 'n', type: 'bool', dims: [2] }],
  initializers: [{ name: 'two', type: 'int64', dims: [], values: [2] }],
  nodes: [{ op: 'Mul', inputs: ['a', 'two'], outputs: ['s'] }, { op: 'Not', inputs: ['c'], outputs: ['n'] }],
});

// e = Expand(x, shape); y = e + e; z = y + e: three live tensors of the requested size.
// y is an output too, so that the two Adds stay apart (fused, they would hold two tensors
// of the expanded size instead of three).
const expandModel = makeModel({
  inputs: [{ name: 'x', type: 'float32', dims: [1] }, { name: 'shape', type: 'int64', dims: [1] }],
  outputs: [{ name: 'y', type: 'float32', dims: ['n'] }, { name: 'z', type: 'float32', dims: ['n'] }],
  nodes: [{ op: 'Expand', inputs: ['x', 'shape'], outputs: ['e'] }, { op: 'Add', inputs: ['e', 'e'], outputs: ['y'] },
    { op: 'Add', inputs: ['y', 'e'], outputs: ['z'] }],
});

test('Tensor has the onnxruntime-web shape and types', () => {
  const t = new Tensor('float32', new Float32Array([1, 2, 3, 4, 5, 6]), [2, 3]);
  assert.strictEqual(t.type, 'float32');
  assert.deepStrictEqual(t.dims, [2, 3]);
  assert.strictEqual(t.size, 6);
  assert.ok(new Tensor('int64', [1, 2], [2]).data instanceof BigInt64Array);
  assert.ok(new Tensor('uint64', new BigUint64Array([1n]), [1]).data instanceof BigUint64Array);
  assert.ok(new Tensor('float16', new Uint16Array([0x3c00]), [1]).data instanceof Uint16Array);
  assert.ok(new Tensor('bool', new Uint8Array([1, 0]), [2]).data instanceof Uint8Array);
  assert.strictEqual(new Tensor(new Int32Array([1, 2])).type, 'int32');
  assert.deepStrictEqual(new Tensor('string', ['a', 'bc']).dims, [2]);
  assert.throws(() => new Tensor('float32', new Float32Array(5), [2, 3]), /need 6 elements/);
  assert.throws(() => new Tensor('float32', new Int32Array(6), [2, 3]), /Float32Array/);
  assert.throws(() => new Tensor('complex64', new Float32Array(2), [1]), /unsupported tensor type/);
});

test('metadata, symbolic dimensions and a run', async () => {
  const s = await InferenceSession.create(addModel);
  assert.deepStrictEqual(s.inputNames, ['x']);
  assert.deepStrictEqual(s.outputNames, ['y']);
  assert.deepStrictEqual(s.inputMetadata[0], { name: 'x', isTensor: true, type: 'float32', shape: ['batch', 3] });
  assert.strictEqual(s.runtime.threads, 1);
  const out = await s.run({ x: new Tensor('float32', new Float32Array([0.5, 0.25, -1, 10, 20, 30]), [2, 3]) });
  assert.ok(out.y instanceof Tensor);
  assert.deepStrictEqual(out.y.dims, [2, 3]);
  assert.deepStrictEqual([...out.y.data], [1.5, 2.25, 2, 11, 22, 33]);
  await s.release();
});

test('int64 and bool tensors in and out; fetches select outputs', async () => {
  const s = await InferenceSession.create(twoOutputs.buffer, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
  const feeds = { a: new Tensor('int64', new BigInt64Array([3n, -(2n ** 40n)]), [2]), c: new Tensor('bool', new Uint8Array([1, 0]), [2]) };
  const all = await s.run(feeds);
  assert.deepStrictEqual([...all.s.data], [6n, -(2n ** 41n)]);
  assert.strictEqual(all.n.type, 'bool');
  assert.deepStrictEqual([...all.n.data], [0, 1]);
  const some = await s.run(feeds, ['n']);
  assert.deepStrictEqual(Object.keys(some), ['n']);
  await assert.rejects(s.run(feeds, ['nope']), /no output named 'nope'/);
  await s.release();
});

test('errors reject with twinrt\'s message and the next call still works', async () => {
  await assert.rejects(InferenceSession.create(new Uint8Array([1, 2, 3, 4, 5])), (e) => e instanceof TwinrtError && e.code === 'INVALID_MODEL' && e.message.length > 0);
  await assert.rejects(InferenceSession.create(addModel, { mode: 'fast' }), /mode must be 'default', 'exact' or 'reference'/);
  await assert.rejects(InferenceSession.create(addModel, { executionProviders: ['webgpu'] }), /'webgpu': this environment offers no WebGPU adapter/);
  await assert.rejects(InferenceSession.create(addModel, { executionProviders: ['webnn'] }), /'webnn' is not available/);
  const fallback = await InferenceSession.create(addModel, { executionProviders: ['webgpu', 'wasm'] });
  assert.strictEqual(fallback.runtime.executionProvider, 'wasm');
  assert.strictEqual(fallback.placement, null);
  await fallback.release();
  await assert.rejects(InferenceSession.create(path.join(os.tmpdir(), 'no-such-model.onnx')), /ENOENT/);
  const s = await InferenceSession.create(addModel);
  const good = { x: new Tensor('float32', new Float32Array([1, 1, 1]), [1, 3]) };
  await assert.rejects(s.run({ x: new Tensor('int32', new Int32Array(3), [1, 3]) }), { code: 'INVALID_ARGUMENT', message: "input 'x' must be float32, got int32" });
  await assert.rejects(s.run({ x: new Tensor('float32', new Float32Array(4), [1, 4]) }), /input 'x' must have shape \[batch,3\], got \[1,4\]/);
  await assert.rejects(s.run({}), { message: "input 'x' was not given" });
  await assert.rejects(s.run({ ...good, z: good.x }), { message: "the model has no input named 'z'" });
  assert.deepStrictEqual([...(await s.run(good)).y.data], [2, 3, 4]);
  await s.release();
  await assert.rejects(s.run(good), /released/);
});

test('running out of WebAssembly memory rejects and the instance keeps working', async () => {
  const s = await InferenceSession.create(expandModel);
  const x = new Tensor('float32', new Float32Array([1]), [1]);
  // Three float32 tensors of 1.5e9 bytes cannot fit the 4 GiB address space: the memory
  // budget (docs/security.md) refuses the one that would not fit, before allocating it.
  await assert.rejects(s.run({ x, shape: new Tensor('int64', [375000000n], [1]) }),
                       { code: 'INVALID_ARGUMENT', message: /beyond the memory limit/ });
  // More than a wasm32 tensor may hold is refused before allocating (the largest-tensor limit).
  await assert.rejects(s.run({ x, shape: new Tensor('int64', [2n ** 40n], [1]) }),
                       { code: 'INVALID_ARGUMENT', message: /more than the largest tensor allowed/ });
  const ok = await s.run({ x, shape: new Tensor('int64', [3n], [1]) });
  assert.deepStrictEqual([...ok.z.data], [3, 3, 3]);
  await s.release();
});

test('externalData: initializers stored next to the model', async () => {
  const weights = { name: 'b', type: 'float32', dims: [3], values: [10, 20, 30], external: 'weights/b.bin' };
  const model = makeModel({
    inputs: [{ name: 'x', type: 'float32', dims: [3] }], outputs: [{ name: 'y', type: 'float32', dims: [3] }],
    initializers: [weights], nodes: [{ op: 'Add', inputs: ['x', 'b'], outputs: ['y'] }],
  });
  await assert.rejects(InferenceSession.create(model), /tensor 'b': tensor uses external data, but the model was not loaded from a file/);
  const s = await InferenceSession.create(model, { externalData: [{ path: 'weights/b.bin', data: tensorBytes(weights) }] });
  const out = await s.run({ x: new Tensor('float32', new Float32Array([1, 2, 3]), [3]) });
  assert.deepStrictEqual([...out.y.data], [11, 22, 33]);
  await s.release();
  await assert.rejects(InferenceSession.create(model, { externalData: [{ path: '../b.bin', data: tensorBytes(weights) }] }), /must stay next to the model/);
});

test('two sessions run concurrently', async () => {
  const [a, b] = await Promise.all([InferenceSession.create(addModel), InferenceSession.create(twoOutputs)]);
  const runs = [];
  for (let i = 0; i < 5; i++) {
    runs.push(a.run({ x: new Tensor('float32', new Float32Array([i, i, i]), [1, 3]) }).then((o) => [...o.y.data]));
    runs.push(b.run({ a: new Tensor('int64', [BigInt(i), 1n], [2]), c: new Tensor('bool', new Uint8Array([0, 0]), [2]) }).then((o) => [...o.s.data]));
  }
  const results = await Promise.all(runs);
  for (let i = 0; i < 5; i++) {
    assert.deepStrictEqual(results[2 * i], [i + 1, i + 2, i + 3]);
    assert.deepStrictEqual(results[2 * i + 1], [BigInt(2 * i), 2n]);
  }
  await Promise.all([a.release(), b.release()]);
});

test('proxy: sessions in a worker_threads worker, with threads', async () => {
  env.wasm.proxy = true;
  env.wasm.numThreads = 2;
  try {
    const s = await InferenceSession.create(addModel, { mode: 'reference' });
    assert.strictEqual(s.runtime.variant.endsWith('threaded'), true);
    assert.strictEqual(s.runtime.threads, 2);
    const out = await s.run({ x: new Tensor('float32', new Float32Array([1, 2, 3]), [1, 3]) });
    assert.ok(out.y instanceof Tensor);
    assert.deepStrictEqual([...out.y.data], [2, 4, 6]);
    await assert.rejects(s.run({ x: new Tensor('int32', new Int32Array(3), [1, 3]) }), { code: 'INVALID_ARGUMENT', message: "input 'x' must be float32, got int32" });
    await assert.rejects(InferenceSession.create(new Uint8Array([9, 9, 9])), { code: 'INVALID_MODEL' });
    await s.release();
  } finally {
    env.wasm.proxy = false;
    env.wasm.numThreads = 1;
  }
});

test('Node 20 loads the package through its "exports" without flags', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'twinrt-web-pkg-'));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(path.join(ROOT, 'js'), path.join(dir, 'node_modules', 'twinrt-web'));
  fs.writeFileSync(path.join(dir, 'model.onnx'), addModel);
  fs.writeFileSync(path.join(dir, 'main.mjs'), `
    import { InferenceSession, Tensor } from 'twinrt-web';
    const s = await InferenceSession.create('./model.onnx');
    const o = await s.run({ x: new Tensor('float32', new Float32Array([1, 1, 1]), [1, 3]) });
    console.log(JSON.stringify([...o.y.data]), s.runtime.variant);
  `);
  const r = spawnSync(process.execPath, ['main.mjs'], { cwd: dir, encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.match(r.stdout, /^\[2,3,4\] (simd|baseline)/);
  assert.strictEqual(r.stderr, '');
});
