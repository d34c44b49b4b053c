// float16 models on twinrt-web's WebGPU provider (docs/webgpu.md, "float16"): with
// `shader-f16` their nodes run on the GPU (f16 storage, f32 arithmetic); without it they
// run on wasm and session.placement says why. SwiftShader in Debian's Chromium has no
// shader-f16: there the test checks the fallback, and compiles the f32 twins of the f16
// WGSL sources (tests/js/webgpu_f16_sources.js) to check the rewritten sources are well formed.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { NATIVE, nativeAvailable } from '../js/native.js';
import { makeModel } from '../js/make-model.js';
import { CHROMIUM, openWebGpuPage, withTimeout } from './webgpu_browser.js';

// x[2,8] -> MatMul -> Add -> Relu -> Softmax, made float16 by `twinrt quantize --fp16`
// (inputs and outputs kept float32: Casts at both ends).
function fp16Model(dir) {
  const w = Array.from({ length: 32 }, (_, k) => ((k * 7) % 11) / 5 - 1);
  const f32 = makeModel({
    inputs: [{ name: 'x', type: 'float32', dims: [2, 8] }], outputs: [{ name: 'y', type: 'float32' }],
    initializers: [{ name: 'w', type: 'float32', dims: [8, 4], values: w }, { name: 'b', type: 'float32', dims: [4], values: [0.5, -0.25, 0, 1] }],
    nodes: [{ op: 'MatMul', inputs: ['x', 'w'], outputs: ['m'] }, { op: 'Add', inputs: ['m', 'b'], outputs: ['a'] },
      { op: 'Relu', inputs: ['a'], outputs: ['r'] }, { op: 'Softmax', inputs: ['r'], outputs: ['y'], attrs: { axis: -1 } }],
  });
  const [from, to] = [path.join(dir, 'f32.onnx'), path.join(dir, 'f16.onnx')];
  fs.writeFileSync(from, f32);
  const r = spawnSync(NATIVE, ['quantize', '--fp16', '--keep-io-types', from, '-o', to], { encoding: 'utf8' });
  assert.strictEqual(r.status, 0, r.stderr);
  return fs.readFileSync(to);
}

const skip = !fs.existsSync(CHROMIUM) ? `${CHROMIUM} is not installed` : !nativeAvailable() ? `${NATIVE} not built` : false;
test('float16 models on the WebGPU provider', { skip }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'twinrt-f16-'));
  const { browser, server, page } = await openWebGpuPage();
  try {
    if (!(await page.evaluate(() => window.webgpuAdapter()))) {
      t.skip('this Chromium offers no WebGPU adapter');
      return;
    }
    const twins = await page.evaluate(() => window.webgpuF16Twins());
    t.diagnostic(`adapter has shader-f16: ${twins.shaderF16}; f32 twins of ${twins.compiled} f16 sources compiled`);
    assert.deepStrictEqual(twins.errors, [], 'the f16 sources are well formed');

    const spec = { base64: fp16Model(dir).toString('base64') };
    const r = await withTimeout(page.evaluate((s) => window.webgpuCompare(s), spec), 'float16 model');
    assert.strictEqual(r.runtime.executionProvider, 'webgpu');
    t.diagnostic(`placement: ${JSON.stringify(r.placement.map((p) => `${p.op}:${p.ep}${p.reason ? ` (${p.reason})` : ''}`))}`);
    const f16Steps = r.placement.filter((p) => p.op !== 'Cast');
    assert.ok(f16Steps.length > 0);
    for (const p of f16Steps) {
      if (twins.shaderF16) assert.strictEqual(p.ep, 'webgpu', `${p.op} on the GPU`);
      else assert.match(`${p.ep} ${p.reason}`, /^wasm input \d+ is float16 \(the adapter has no shader-f16\)$/, p.op);
    }
    const y = r.outputs.y;
    t.diagnostic(`y: max abs diff to wasm exact ${y.maxAbs}`);
    assert.ok(y.maxRel <= 1e-2, `max diff ${y.maxAbs}`);  // float16: 2^-11 relative per rounding
    assert.ok(y.repeatable);
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
