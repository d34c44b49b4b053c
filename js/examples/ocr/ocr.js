// The OCR example page: an image goes through examples/ocr/ocr.json with twinrt-web's
// Pipeline (the same C++ glue as `twinrt pipeline run`); the page shows the boxes over the
// image, the text, and the time per stage (cold: the first run, warm: the later ones). The
// models run on WebAssembly or WebGPU, and the pipeline in a worker (env.wasm.proxy) or in
// the page's thread, as the page's switches say. WebGPU runs in the page's thread (the GPU
// device lives there), so choosing it moves the pipeline there.
import { Pipeline, env, outputStrings } from '../../lib/browser.js';

const $ = (id) => document.getElementById(id);
const PIPELINE = new URLSearchParams(location.search).get('pipeline') || '../../../examples/ocr/ocr.json';
const SAMPLE = '../../../examples/ocr/sample_page.png';
// Every stage runs with one thread (the pipeline file's session options).
env.wasm.numThreads = 1;

let pipeline = null;
let lastImage = null;    // re-read when the pipeline moves
const cold = new Map();  // stage -> first run's ms

function showError(e) {
  $('error').hidden = !e;
  $('error').textContent = e ? `Error: ${e.message || e}` : '';
  if (e) $('status').textContent = 'error';
}

async function drawBoxes(bytes, boxes) {
  const bitmap = await createImageBitmap(new Blob([bytes]));
  const canvas = $('canvas');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const g = canvas.getContext('2d');
  g.drawImage(bitmap, 0, 0);
  g.strokeStyle = '#e11d48';
  g.lineWidth = 2;
  for (let i = 0; i < boxes.dims[0]; i++) {
    const q = boxes.data.subarray(i * 8, i * 8 + 8);
    g.beginPath();
    g.moveTo(q[0], q[1]);
    for (let c = 1; c < 4; c++) g.lineTo(q[2 * c], q[2 * c + 1]);
    g.closePath();
    g.stroke();
  }
}

function showTimings(timings) {
  const body = $('timings').tBodies[0];
  body.replaceChildren();
  for (const t of timings) {
    if (t.cold) cold.set(t.stage, t.run_ms);
    const row = body.insertRow();
    const warm = t.cold ? '-' : t.run_ms.toFixed(1);
    for (const v of [t.stage, t.kind, t.kind === 'model' ? t.provider : '', t.load_ms.toFixed(1), (cold.get(t.stage) ?? t.run_ms).toFixed(1), warm, t.kind === 'model' ? t.model_calls : ''])
      row.insertCell().textContent = v;
  }
}

async function read(bytes) {
  lastImage = bytes;
  showError(null);
  $('status').textContent = 'running...';
  try {
    const { outputs, timings } = await pipeline.run({ image_file: bytes });
    const lines = outputStrings(outputs.text);
    $('text').replaceChildren(...lines.map((l) => Object.assign(document.createElement('li'), { textContent: l })));
    await drawBoxes(bytes, outputs.boxes);
    showTimings(timings);
    $('results').hidden = false;
    $('status').textContent = `done: ${lines.length} lines`;
  } catch (e) {
    showError(e);
  }
}

const readFile = async (file) => read(new Uint8Array(await file.arrayBuffer()));
$('file').addEventListener('change', () => $('file').files.length && readFile($('file').files[0]));
$('sample').addEventListener('click', async () => read(new Uint8Array(await (await fetch(SAMPLE)).arrayBuffer())));
$('drop').addEventListener('dragover', (e) => { e.preventDefault(); $('drop').classList.add('over'); });
$('drop').addEventListener('dragleave', () => $('drop').classList.remove('over'));
$('drop').addEventListener('drop', (e) => {
  e.preventDefault();
  $('drop').classList.remove('over');
  if (e.dataTransfer.files.length) readFile(e.dataTransfer.files[0]);
});

// (Re)creates the pipeline where the switch says, and reads the last image again.
async function load() {
  if (pipeline) await pipeline.release();
  pipeline = null;
  cold.clear();
  showError(null);
  const gpu = $('provider').value === 'webgpu';
  if (gpu) $('where').value = 'page';
  $('where').disabled = gpu;
  const inWorker = $('where').value === 'worker';
  env.wasm.proxy = inWorker;
  $('status').textContent = 'loading the pipeline...';
  try {
    const started = performance.now();
    pipeline = await Pipeline.create(new URL(PIPELINE, location.href), { executionProviders: gpu ? ['webgpu'] : ['wasm'] });
    const r = pipeline.runtime;
    $('runtime').innerHTML = '';
    for (const [k, v] of [['pipeline', PIPELINE], ['runs in', inWorker ? 'a worker' : "the page's thread"],
      ['models on', r.executionProvider + (r.adapter ? ` (${r.adapter})` : '')],
      ['runtime variant', r.variant], ['SIMD', r.simd ? 'yes' : 'no'],
      ['threads per stage', 1], ['cross-origin isolated', String(self.crossOriginIsolated)],
      ['pipeline load', `${(performance.now() - started).toFixed(0)} ms`]]) {
      $('runtime').append(Object.assign(document.createElement('dt'), { textContent: k }), Object.assign(document.createElement('dd'), { textContent: v }));
    }
    $('status').textContent = 'ready';
    if (lastImage) await read(lastImage);
  } catch (e) {
    showError(e);
  }
}

// WebGPU is offered only where the browser has an adapter.
async function checkGpu() {
  const adapter = navigator.gpu ? await navigator.gpu.requestAdapter().catch(() => null) : null;
  const option = $('provider').querySelector('option[value="webgpu"]');
  option.disabled = !adapter;
  $('gpu-note').textContent = adapter ? 'WebGPU runs in the page\'s thread.'
    : navigator.gpu ? 'WebGPU: this browser offers no adapter.' : 'WebGPU: not available in this browser (no navigator.gpu).';
}

$('where').addEventListener('change', load);
$('provider').addEventListener('change', load);
await checkGpu();
await load();
