// Quantized models (written by the native `twinrt quantize`) through the WebAssembly build:
// the integer kernels (QLinearConv fused from QDQ, MatMulInteger, ConvInteger) must give
// the native CLI's bits on every native ISA tier and thread count.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { InferenceSession, Tensor, env } from '../../js/lib/node.js';
import { NATIVE, nativeAvailable, runNative, nativeOutput, sameBits, writeNpy } from './native.js';
import { makeModel } from './make-model.js';

env.wasm.numThreads = 1;

// Deterministic values in [lo, hi).
function values(n, seed, lo, hi) {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = lo + (hi - lo) * (s / 2 ** 32);
  }
  return out;
}
const weights = (name, dims, seed, scale = 0.2) =>
  ({ name, type: 'float32', dims, values: Array.from(values(dims.reduce((a, b) => a * b, 1), seed, -scale, scale)) });

// Conv 3x3 (bias) -> Relu -> Conv 1x1 -> Add(x's branch) : sizes across the tiles (40 and 24
// output channels, 144 positions).
const CONV_MODEL = {
  inputs: [{ name: 'x', type: 'float32', dims: [1, 16, 12, 12] }],
  outputs: [{ name: 'y', type: 'float32', dims: [1, 24, 12, 12] }],
  nodes: [
    { op: 'Conv', inputs: ['x', 'w1', 'b1'], outputs: ['c1'], attrs: { pads: [1, 1, 1, 1] } },
    { op: 'Relu', inputs: ['c1'], outputs: ['r1'] },
    { op: 'Conv', inputs: ['r1', 'w2'], outputs: ['y'] },
  ],
  initializers: [weights('w1', [40, 16, 3, 3], 1), weights('b1', [40], 2), weights('w2', [24, 40, 1, 1], 3)],
};
const MATMUL_MODEL = {
  inputs: [{ name: 'x', type: 'float32', dims: [3, 7, 70] }],
  outputs: [{ name: 'y', type: 'float32', dims: [3, 7, 45] }],
  nodes: [{ op: 'MatMul', inputs: ['x', 'w'], outputs: ['y'] }],
  initializers: [weights('w', [70, 45], 4)],
};

// Two NHWC int8 convolutions from one input, sized around the WebAssembly 4x8 indirect tile
// (and the native 6x8 ones): y has 35 pixels (a 3-row tail) with 20 (a 4-column tail) then
// 13 channels; z has 2 pixels (below the tile) and 5 channels (below the panel).
const NHWC_TAILS_MODEL = {
  inputs: [{ name: 'x', type: 'float32', dims: [1, 8, 7, 5] }],
  outputs: [{ name: 'y', type: 'float32', dims: [1, 13, 7, 5] }, { name: 'z', type: 'float32', dims: [1, 5, 2, 1] }],
  nodes: [
    { op: 'Conv', inputs: ['x', 'wa', 'ba'], outputs: ['a'], attrs: { pads: [1, 1, 1, 1] } },
    { op: 'Relu', inputs: ['a'], outputs: ['ra'] },
    { op: 'Conv', inputs: ['ra', 'wy'], outputs: ['y'] },
    { op: 'Conv', inputs: ['x', 'wz'], outputs: ['z'], attrs: { strides: [3, 3] } },
  ],
  initializers: [weights('wa', [20, 8, 3, 3], 5), weights('ba', [20], 6), weights('wy', [13, 20, 1, 1], 7),
    weights('wz', [5, 8, 3, 3], 8)],
};

const VARIANTS = [
  { name: 'conv NHWC tails static', model: NHWC_TAILS_MODEL, args: ['--static'], fusedOp: 'QLinearConvNhwc' },
  { name: 'conv static per-channel', model: CONV_MODEL, args: ['--static', '--per-channel'] },
  { name: 'conv dynamic', model: CONV_MODEL, args: ['--dynamic'] },
  { name: 'matmul static', model: MATMUL_MODEL, args: ['--static'] },
  { name: 'matmul dynamic per-channel', model: MATMUL_MODEL, args: ['--dynamic', '--per-channel'] },
];

for (const v of VARIANTS) {
  test(`quantized ${v.name}: wasm gives the native bits on every tier`, { skip: !nativeAvailable() && 'no native CLI' }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'twinrt-quant-'));
    const dims = v.model.inputs[0].dims;
    const x = values(dims.reduce((a, b) => a * b, 1), 9, -1, 1.5);
    const xFile = path.join(dir, 'x.npy');
    writeNpy(xFile, 'float32', dims, x);
    fs.writeFileSync(path.join(dir, 'float.onnx'), makeModel(v.model));
    const quantized = path.join(dir, 'int8.onnx');
    const q = spawnSync(NATIVE, ['quantize', path.join(dir, 'float.onnx'), '-o', quantized, ...v.args, '--input', `x=${xFile}`],
      { encoding: 'utf8' });
    assert.strictEqual(q.status, 0, q.stderr);
    if (v.fusedOp) {  // the convolutions under test really take that path
      const inspect = spawnSync(NATIVE, ['inspect', quantized, '--optimized'], { encoding: 'utf8' });
      assert.match(inspect.stdout, new RegExp(v.fusedOp), inspect.stderr);
    }
    const session = await InferenceSession.create(fs.readFileSync(quantized));
    const results = await session.run({ x: new Tensor('float32', x, dims) });
    const outputs = v.model.outputs.map((o) => results[o.name]);
    for (const isa of ['scalar', 'avx2', 'avx512'])
      for (const threads of ['1', '2']) {
        const out = path.join(dir, `out_${isa}_${threads}`);
        const r = runNative(quantized, ['--input', `x=${xFile}`, '--isa', isa, '--threads', threads], out);
        if (!r.ok && /cannot run the/.test(r.error)) continue;  // a tier this CPU lacks
        assert.ok(r.ok, r.error);
        outputs.forEach((wasm, i) =>
          assert.strictEqual(sameBits(wasm, nativeOutput(out, i)), '', `${v.model.outputs[i].name}, ${isa}, ${threads} threads`));
      }
    fs.rmSync(dir, { recursive: true, force: true });
  });
}
