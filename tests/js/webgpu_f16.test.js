// float16 on the GPU without a GPU: the WGSL that the kernels generate for float16 buffers
// (f16 storage, f32 arithmetic; js/lib/webgpu/f16.js). The browser test compiles the f32
// twins of the same sources on SwiftShader and runs a float16 model's fallback.
import test from 'node:test';
import assert from 'node:assert';
import { adaptBody } from '../../js/lib/webgpu/f16.js';
import { f16Sources } from './webgpu_f16_sources.js';

test('reads of f16 bindings widen, writes narrow, other bindings stay', () => {
  const body = '  let x = in1[a[0] + 1u] + in10[2u];\n  out[idx[3]] = x * in1[k];';
  assert.strictEqual(adaptBody(body, [1], true),
    '  let x = f32(in1[a[0] + 1u]) + in10[2u];\n  out[idx[3]] = f16(x * f32(in1[k]));');
  assert.strictEqual(adaptBody(body, [10], false), '  let x = in1[a[0] + 1u] + f32(in10[2u]);\n  out[idx[3]] = x * in1[k];');
  assert.throws(() => adaptBody('  let y = out[0];', [], true), /read of out/);
  assert.throws(() => adaptBody('  let y = in0[0;', [0], false), /unbalanced/);
});

test('every kernel case: enable f16, f16 storage, every access converted', () => {
  const sources = f16Sources();
  assert.ok(sources.length >= 13);
  for (const { name, code } of sources) {
    assert.ok(code.startsWith('enable f16;\n'), `${name}: enable f16`);
    const outType = /var<storage, read_write> out : array<(\w+)>;/.exec(code)[1];
    assert.strictEqual(outType, { 'Cast to int64': 'u32', 'Cast to float32': 'f32' }[name] || 'f16', name);
    const f16Inputs = [...code.matchAll(/var<storage, read> in(\d+) : array<f16>;/g)].map((m) => m[1]);
    assert.ok(f16Inputs.length > 0, `${name}: an f16 input`);
    const main = code.slice(code.indexOf('fn main'));
    for (const k of f16Inputs) {
      const reads = main.match(new RegExp(`.{0,4}\\bin${k}\\[`, 'g')) || [];
      assert.ok(reads.length > 0 && reads.every((r) => r.endsWith(`f32(in${k}[`)), `${name}: in${k} read as f32: ${reads}`);
    }
    const writes = [...main.matchAll(/\bout\[[^\n]*?\] = ([^;]*);/g)].map((m) => m[1]);
    const narrowed = (w) => w.startsWith('f16(') === (outType === 'f16');
    assert.ok(writes.length > 0 && writes.every(narrowed), `${name}: writes narrowed when f16: ${writes}`);
  }
  const gather = sources.find((s) => s.name === 'Gather').code;
  assert.match(gather, /in1 : array<f32>;/, 'Gather indices stay u32 bits in an f32 binding');
});
