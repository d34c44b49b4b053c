// Resource limits in twinrt-web (docs/security.md): sizes beyond maxTensorBytes or
// maxMemoryBytes reject the Promise with INVALID_ARGUMENT naming the limit, and the same
// session and instance keep giving right answers afterwards.
import test from 'node:test';
import assert from 'node:assert';
import { InferenceSession, Tensor, env } from '../../js/lib/node.js';
import { makeModel } from './make-model.js';

env.wasm.numThreads = 1;

// y = ConstantOfShape(shape): the output's size comes from the data.
const constantOfShape = makeModel({
  inputs: [{ name: 'shape', type: 'int64', dims: [2] }],
  outputs: [{ name: 'y', type: 'float32', dims: ['a', 'b'] }],
  nodes: [{ op: 'ConstantOfShape', inputs: ['shape'], outputs: ['y'] }],
});

// y = Identity(x), x: float32[4, 1024, 1024, 1024] (16 GiB declared)
const hugeInput = makeModel({
  inputs: [{ name: 'x', type: 'float32', dims: [4, 1024, 1024, 1024] }],
  outputs: [{ name: 'y', type: 'float32', dims: [4, 1024, 1024, 1024] }],
  nodes: [{ op: 'Identity', inputs: ['x'], outputs: ['y'] }],
});

const shape = (a, b) => new Tensor('int64', BigInt64Array.from([BigInt(a), BigInt(b)]), [2]);

async function rejectsNaming(promise, pattern) {
  await assert.rejects(promise, (e) => {
    assert.strictEqual(e.code, 'INVALID_ARGUMENT', e.message);
    assert.match(e.message, pattern);
    return true;
  });
}

test('a value made while running beyond maxTensorBytes rejects; the session keeps working', async () => {
  const s = await InferenceSession.create(constantOfShape, { maxTensorBytes: 1 << 20 });
  await rejectsNaming(s.run({ shape: shape(1 << 20, 1 << 20) }), /float32\[1048576,1048576\].*largest tensor/);
  await rejectsNaming(s.run({ shape: shape(512, 1024) }), /largest tensor allowed \(1 MiB/);
  const out = await s.run({ shape: shape(2, 3) });
  assert.deepStrictEqual(out.y.dims, [2, 3]);
});

test('without options the defaults refuse a 4 TiB value and the instance keeps working', async () => {
  const s = await InferenceSession.create(constantOfShape);
  await rejectsNaming(s.run({ shape: shape(1 << 20, 1 << 20) }), /largest tensor allowed/);
  assert.deepStrictEqual((await s.run({ shape: shape(1, 4) })).y.dims, [1, 4]);
});

test('a declared 16 GiB input is refused when the session is created', async () => {
  await rejectsNaming(InferenceSession.create(hugeInput), /input 'x'.*largest tensor allowed/);
  const s = await InferenceSession.create(constantOfShape);
  assert.deepStrictEqual((await s.run({ shape: shape(3, 1) })).y.dims, [3, 1]);
});

test('maxMemoryBytes counts the values alive together', async () => {
  const s = await InferenceSession.create(constantOfShape, { maxMemoryBytes: 1 << 20 });
  await rejectsNaming(s.run({ shape: shape(1024, 1024) }), /memory limit/);
  assert.deepStrictEqual((await s.run({ shape: shape(16, 16) })).y.dims, [16, 16]);
});

test('bad limit options are refused', async () => {
  for (const bad of [0, -1, 1.5, 'big', 2 ** 60])
    await rejectsNaming(InferenceSession.create(constantOfShape, { maxTensorBytes: bad }), /maxTensorBytes/);
});
