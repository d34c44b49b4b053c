// Runs in the browser page: loads an engine module with the onnxruntime-web API shape,
// creates a session from /model and runs it on tensors sent as base64. Driven by
// browser_backend.js through page.evaluate.

const ARRAY_TYPES = {
  float16: Uint16Array, float32: Float32Array, float64: Float64Array, int8: Int8Array, int16: Int16Array,
  int32: Int32Array, int64: BigInt64Array, uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array,
  uint64: BigUint64Array, bool: Uint8Array,
};

function fromBase64(t) {
  const Ctor = ARRAY_TYPES[t.type];
  if (!Ctor) throw new Error(`unsupported tensor type ${t.type}`);
  const bin = atob(t.b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new Ctor(bytes.buffer);
}

function toBase64(data) {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

let api = null;
let session = null;
// Feeds arrive a piece at a time (stage) before run or time takes them: one message of
// about 200 MB closes the page, and localize's own-error models take every intermediate.
let staged = {};
function takeFeeds() {
  const feeds = Object.fromEntries(Object.entries(staged).map(([n, t]) => [n, new api.Tensor(t.type, fromBase64(t), t.dims)]));
  staged = {};
  return feeds;
}

window.twinrtEngine = {
  // Imports the engine module; with `webgpu`, also reports the adapter (null: none).
  async start(moduleUrl, webgpu) {
    api = await import(moduleUrl);
    window.engineApi = api;
    let adapter = null;
    if (webgpu && navigator.gpu) {
      const a = await navigator.gpu.requestAdapter();
      if (a) {
        const info = a.info || (a.requestAdapterInfo ? await a.requestAdapterInfo() : {});
        adapter = { vendor: info.vendor || '', architecture: info.architecture || '', device: info.device || '',
                    description: info.description || '' };
      }
    }
    return { crossOriginIsolated: self.crossOriginIsolated, userAgent: navigator.userAgent, hasGpu: !!navigator.gpu, adapter };
  },
  async load(sessionOptions) {
    // localize loads one chunk model after another: the last one's memory must go first
    // (kept, BERT's chunk models ran twinrt-web's heap out of memory).
    const last = session;
    session = null;
    if (last) await last.release();
    const bytes = new Uint8Array(await (await fetch('/model')).arrayBuffer());
    session = await api.InferenceSession.create(bytes, sessionOptions);
    return { inputNames: session.inputNames, outputNames: session.outputNames };
  },
  // stage(): forget what was staged; stage(name, type, dims, piece): append base64 to a feed.
  stage(name, type, dims, piece) {
    if (name === undefined) staged = {};
    else (staged[name] ||= { type, dims, b64: '' }).b64 += piece;
  },
  // placement: twinrt-web's WebGPU sessions say where each node of this run ran; null otherwise.
  async run(outputNames) {
    const results = await session.run(takeFeeds(), outputNames);
    const tensors = Object.fromEntries(outputNames.map((n) => [n, { type: results[n].type, dims: results[n].dims,
                                                                   b64: toBase64(results[n].data) }]));
    return { tensors, placement: session.placement || null };
  },
  async time(runs) {
    const tensors = takeFeeds();
    const ms = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await session.run(tensors);
      ms.push(performance.now() - start);
    }
    return ms;
  },
};
window.twinrtEngineReady = true;
