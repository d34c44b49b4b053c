// The example page: pick an .onnx file, see its inputs and outputs, run it on random or
// uploaded (.npy) data, and see load and run times, threads and SIMD.
import { InferenceSession, Tensor, env } from '../lib/browser.js';
import { readNpy } from './npy.js';

const $ = (id) => document.getElementById(id);
let session = null;
let modelName = '';

function showError(e) {
  $('error').hidden = !e;
  $('error').textContent = e ? `Error: ${e.message || e}` : '';
}

const fmtShape = (shape) => `[${shape.join(', ')}]`;
const ms = (x) => `${x.toFixed(1)} ms`;

$('model-file').addEventListener('change', () => { $('load').disabled = !$('model-file').files.length; });

$('load').addEventListener('click', async () => {
  showError(null);
  const file = $('model-file').files[0];
  const threads = Math.max(1, Number($('threads').value) || 1);
  $('load-status').textContent = `loading ${file.name}...`;
  $('load').disabled = true;
  try {
    if (session) await session.release();
    session = null;
    // The pool of threads is fixed when the module first loads; later sessions use up to it.
    if (!env.wasm.numThreads) env.wasm.numThreads = threads;
    const bytes = new Uint8Array(await file.arrayBuffer());
    const t0 = performance.now();
    const executionProviders = $('provider').value === 'webgpu' ? ['webgpu', 'wasm'] : ['wasm'];
    session = await InferenceSession.create(bytes, { mode: $('mode').value, intraOpNumThreads: threads, executionProviders });
    const loadMs = performance.now() - t0;
    modelName = file.name;
    $('load-status').textContent = `${file.name} (${(bytes.length / 1e6).toFixed(2)} MB) loaded in ${ms(loadMs)}`;
    $('load-status').dataset.loadMs = String(loadMs);
    showModel();
  } catch (e) {
    $('load-status').textContent = '';
    showError(e);
  } finally {
    $('load').disabled = false;
  }
});

function showModel() {
  const body = $('inputs').tBodies[0];
  body.replaceChildren();
  for (const m of session.inputMetadata) {
    const tr = body.insertRow();
    tr.insertCell().textContent = m.name;
    tr.insertCell().textContent = m.isTensor ? m.type : `${m.kind}(${m.type})`;
    const dims = tr.insertCell();
    dims.className = 'dims';
    (m.shape || []).forEach((d, i) => {
      if (typeof d === 'number') dims.append(`${i ? ' × ' : ''}${d}`);
      else {
        const input = document.createElement('input');
        // Batch-like first axes default to 1, other dynamic axes (image sizes, lengths) to 64.
        Object.assign(input, { type: 'number', min: 1, value: i === 0 ? 1 : 64, title: d || 'dynamic dimension' });
        input.dataset.dim = i;
        dims.append(i ? ' × ' : '', `${d || '?'}=`, input);
      }
    });
    const data = tr.insertCell();
    const file = document.createElement('input');
    Object.assign(file, { type: 'file', accept: '.npy', title: 'a .npy file; random data when none is chosen' });
    data.append('random, or .npy: ', file);
    tr.dataset.name = m.name;
  }
  const outBody = $('outputs-meta').tBodies[0];
  outBody.replaceChildren();
  for (const m of session.outputMetadata) {
    const tr = outBody.insertRow();
    tr.insertCell().textContent = m.name;
    tr.insertCell().textContent = m.isTensor ? m.type : `${m.kind}(${m.type})`;
    tr.insertCell().textContent = fmtShape(m.shape.map((d) => (typeof d === 'number' ? d : d || '?')));
  }
  $('io').hidden = false;
  $('results').hidden = true;
}

// Uniform values in [-1, 1) for floats, small integers otherwise.
function randomTensor(type, dims) {
  const n = dims.reduce((a, b) => a * b, 1);
  if (type === 'string') return new Tensor('string', Array.from({ length: n }, (_, i) => `text ${i}`), dims);
  if (type === 'bool') return new Tensor('bool', Uint8Array.from({ length: n }, () => (Math.random() < 0.5 ? 1 : 0)), dims);
  if (type === 'float32' || type === 'float64') {
    const Ctor = type === 'float32' ? Float32Array : Float64Array;
    return new Tensor(type, Ctor.from({ length: n }, () => Math.random() * 2 - 1), dims);
  }
  if (type === 'float16') return new Tensor(type, Uint16Array.from({ length: n }, () => 0x3800 + Math.floor(Math.random() * 0x400)), dims);
  if (type === 'int64' || type === 'uint64') return new Tensor(type, Array.from({ length: n }, () => BigInt(Math.floor(Math.random() * 4))), dims);
  return new Tensor(type, Array.from({ length: n }, () => Math.floor(Math.random() * 4)), dims);
}

async function feeds() {
  const out = {};
  for (const tr of $('inputs').tBodies[0].rows) {
    const m = session.inputMetadata.find((x) => x.name === tr.dataset.name);
    const file = tr.querySelector('input[type=file]').files[0];
    if (file) {
      const t = readNpy(await file.arrayBuffer());
      out[m.name] = new Tensor(t.type, t.data, t.dims);
      continue;
    }
    const dims = (m.shape || []).map((d, i) => (typeof d === 'number' ? d : Number(tr.querySelector(`input[data-dim="${i}"]`).value) || 1));
    out[m.name] = randomTensor(m.type, dims);
  }
  return out;
}

function summary(t) {
  if (!t || Array.isArray(t) || t.type === 'string') return null;
  let min = Infinity, max = -Infinity, sum = 0, arg = 0;
  for (let i = 0; i < t.data.length; i++) {
    const v = Number(t.data[i]);
    if (v < min) min = v;
    if (v > max) { max = v; arg = i; }
    sum += v;
  }
  return { min, max, mean: sum / t.data.length, arg };
}

$('run').addEventListener('click', async () => {
  showError(null);
  $('run').disabled = true;
  try {
    const f = await feeds();
    let t0 = performance.now();
    const out = await session.run(f);
    const firstMs = performance.now() - t0;
    const repeats = Math.max(1, Number($('repeats').value) || 1);
    const times = [];
    for (let i = 0; i < repeats; i++) {
      t0 = performance.now();
      await session.run(f);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const rt = session.runtime;
    const stats = {
      model: modelName,
      'cold load (module + session)': ms(Number($('load-status').dataset.loadMs)),
      'first run': ms(firstMs),
      [`warm run (median of ${repeats})`]: ms(times[Math.floor(times.length / 2)]),
      threads: String(rt.threads),
      SIMD: rt.simd ? 'yes' : 'no',
      build: rt.variant,
      'cross-origin isolated': globalThis.crossOriginIsolated ? 'yes' : 'no (threads unavailable)',
      provider: rt.executionProvider + (rt.adapter ? ` (${rt.adapter})` : ''),
    };
    // WebGPU sessions: how many nodes ran on the GPU (session.placement, docs/webgpu.md).
    if (session.placement) {
      const onGpu = session.placement.filter((p) => p.ep === 'webgpu').length;
      stats['nodes on the GPU'] = `${onGpu} of ${session.placement.length}`;
    }
    $('stats').replaceChildren(...Object.entries(stats).flatMap(([k, v]) => {
      const dt = document.createElement('dt'), dd = document.createElement('dd');
      dt.textContent = k;
      dd.textContent = v;
      dd.dataset.stat = k.split(' ')[0];
      return [dt, dd];
    }));
    const body = $('outputs').tBodies[0];
    body.replaceChildren();
    for (const name of session.outputNames) {
      const t = out[name], s = summary(t), tr = body.insertRow();
      tr.insertCell().textContent = name;
      tr.insertCell().textContent = Array.isArray(t) ? 'sequence' : t ? t.type : 'none';
      tr.insertCell().textContent = t && !Array.isArray(t) ? fmtShape(t.dims) : '';
      for (const v of s ? [s.min, s.max, s.mean] : ['', '', '']) Object.assign(tr.insertCell(), { className: 'num', textContent: typeof v === 'number' ? v.toPrecision(5) : v });
      Object.assign(tr.insertCell(), { className: 'num', textContent: s ? String(s.arg) : '' });
      const first = t && !Array.isArray(t) ? Array.from(t.data.slice(0, 5), (v) => (typeof v === 'number' ? v.toPrecision(4) : String(v))).join(', ') : '';
      Object.assign(tr.insertCell(), { className: 'num', textContent: first });
    }
    $('results').hidden = false;
  } catch (e) {
    showError(e);
  } finally {
    $('run').disabled = false;
  }
});
