// The onnxruntime-web-style API over a platform (node-platform.js / browser-platform.js).
import { Tensor } from './tensor.js';
import { env } from './env.js';
import { LocalBackend } from './backend.js';
import { ProxyBackend } from './proxy.js';
import { TwinrtError } from './errors.js';
import { createPipelineClass, LocalPipelines } from './pipeline.js';
import { getDevice } from './webgpu/device.js';
import { WebGpuExecutor } from './webgpu/executor.js';

const MODES = ['default', 'exact', 'reference'];
const PROVIDERS = ['wasm', 'cpu', 'webgpu'];
// 'gpu-buffer' outputs come from WebGPU sessions; a session on wasm returns CPU tensors.
const OUTPUT_LOCATIONS = ['cpu', 'gpu-buffer'];

function toBytes(x) {
  if (x instanceof Uint8Array) return x;
  if (x instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && x instanceof SharedArrayBuffer)) return new Uint8Array(x);
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  return null;
}

function checkOptions(o) {
  const providers = [];
  for (const ep of o.executionProviders || []) {
    const name = typeof ep === 'string' ? ep : ep && ep.name;
    if (!PROVIDERS.includes(name))
      throw new TwinrtError(`twinrt-web: executionProviders: '${name}' is not available (twinrt-web runs 'webgpu' and 'wasm')`, 'INVALID_ARGUMENT');
    providers.push(name);
  }
  const mode = o.mode || 'default';
  if (!MODES.includes(mode)) throw new TwinrtError(`twinrt-web: mode must be 'default', 'exact' or 'reference', got '${mode}'`, 'INVALID_ARGUMENT');
  const threads = o.intraOpNumThreads;
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 0))
    throw new TwinrtError(`twinrt-web: intraOpNumThreads must be a non-negative integer, got ${threads}`, 'INVALID_ARGUMENT');
  for (const key of ['maxTensorBytes', 'maxMemoryBytes']) {
    const v = o[key];
    if (v !== undefined && !(Number.isSafeInteger(v) && v > 0))
      throw new TwinrtError(`twinrt-web: ${key} must be a positive integer (bytes), got ${v}`, 'INVALID_ARGUMENT');
  }
  const where = o.preferredOutputLocation ?? 'cpu';
  const locations = typeof where === 'string' ? [where] : where && typeof where === 'object' ? Object.values(where) : [null];
  if (!locations.every((l) => OUTPUT_LOCATIONS.includes(l)))
    throw new TwinrtError(`twinrt-web: preferredOutputLocation must be 'cpu' or 'gpu-buffer', or an object of them by output name`, 'INVALID_ARGUMENT');
  return { providers, mode, threads: threads || 0, dims: o.freeDimensionOverrides || {},
    maxTensorBytes: o.maxTensorBytes || 0, maxMemoryBytes: o.maxMemoryBytes || 0, outputLocation: where };
}

export function createApi(platform) {
  let local = null, proxy = null;
  const backend = () => {
    if (env.wasm.proxy) return (proxy ||= new ProxyBackend(platform, env.wasm));
    return (local ||= new LocalBackend(platform, env.wasm));
  };

  async function readSource(x) {
    const bytes = toBytes(x);
    if (bytes) return bytes;
    if (typeof x === 'string' || x instanceof URL) return platform.readSource(String(x));
    throw new TypeError('twinrt-web: a model is a URL, a path, an ArrayBuffer or a Uint8Array');
  }

  class InferenceSession {
    constructor(backend, info, gpu = null) {
      this._backend = backend;
      this._gpu = gpu;
      this._id = info.id;
      this.inputMetadata = Object.freeze(info.inputMetadata);
      this.outputMetadata = Object.freeze(info.outputMetadata);
      this.inputNames = Object.freeze(info.inputMetadata.map((m) => m.name));
      this.outputNames = Object.freeze(info.outputMetadata.map((m) => m.name));
      // twinrt's own: which build runs the session, with how many threads.
      this.runtime = Object.freeze({ ...info.runtime, executionProvider: gpu ? 'webgpu' : 'wasm',
        ...(gpu ? { adapter: gpu.gpu.adapterName } : {}) });
    }

    // WebGPU sessions: [{ node, op, ep: 'webgpu' | 'wasm' }] for each node of the last run
    // (the compiled plan's nodes, in order). Null for wasm sessions: everything runs there.
    get placement() { return this._gpu ? this._gpu.placement : null; }

    // create(urlOrPathOrBytes, options) or create(buffer, byteOffset, byteLength, options)
    static async create(source, a, b, c) {
      let options = a;
      if (typeof a === 'number') {
        source = new Uint8Array(source, a, b);
        options = c;
      }
      options = options || {};
      const settings = checkOptions(options);
      const model = await readSource(source);
      const externalData = [];
      for (const e of options.externalData || []) {
        const data = typeof e.data === 'string' || e.data instanceof URL ? await platform.readSource(String(e.data)) : toBytes(e.data);
        if (!data) throw new TypeError(`twinrt-web: externalData '${e.path}' has no data`);
        externalData.push({ path: e.path, data });
      }
      if (settings.providers.includes('webgpu')) {
        const session = await createWebGpuSession(model, settings, externalData);
        if (session) return session;
      }
      const b2 = backend();
      const info = await b2.createSession(model, { ...settings, externalData });
      return new InferenceSession(b2, info);
    }

    // run(feeds, fetches?, options?): fetches is an array of output names or an object whose
    // keys name them.
    async run(feeds, fetches, _options) {
      if (this._id === null) throw new TwinrtError('twinrt-web: the session was released', 'INVALID_ARGUMENT');
      if (!feeds || typeof feeds !== 'object') throw new TypeError('twinrt-web: feeds must be an object of Tensors');
      let names = [];
      if (Array.isArray(fetches)) names = fetches;
      else if (fetches && typeof fetches === 'object' && !('logSeverityLevel' in fetches || 'tag' in fetches)) names = Object.keys(fetches);
      for (const n of names)
        if (!this.outputNames.includes(n)) throw new TwinrtError(`twinrt-web: the model has no output named '${n}'`, 'INVALID_ARGUMENT');
      if (this._gpu) return this._gpu.run(feeds, names);
      return this._backend.run(this._id, feeds, names);
    }

    async release() {
      if (this._id === null) return;
      const id = this._id;
      this._id = null;
      if (this._gpu) this._gpu.release();
      await this._backend.release(id);
    }

    startProfiling() {}
    endProfiling() {}
  }

  // The WebGPU executor drives a session of this thread's instance (never the worker
  // proxy: the GPU device lives here). Null when there is no adapter and another provider
  // is listed to fall back to.
  async function createWebGpuSession(model, settings, externalData) {
    const gpu = await getDevice().catch(() => null);
    if (!gpu) {
      if (settings.providers.some((p) => p !== 'webgpu')) return null;
      throw new TwinrtError("twinrt-web: executionProviders: 'webgpu': this environment offers no WebGPU adapter (navigator.gpu)", 'UNAVAILABLE');
    }
    if (externalData.length)
      throw new TwinrtError("twinrt-web: executionProviders: 'webgpu' does not take models with external data yet", 'NOT_IMPLEMENTED');
    const b = (local ||= new LocalBackend(platform, env.wasm));
    const info = await b.createSession(model, settings);
    const s = b.sessions.get(info.id);
    try {
      return new InferenceSession(b, info, new WebGpuExecutor(s.rt, s.inner, gpu, info.inputMetadata, settings.outputLocation));
    } catch (e) {
      await b.release(info.id);
      throw e;
    }
  }

  // Pipelines run in the proxy worker when env.wasm.proxy is set, else in this thread in a
  // wasm instance of their own, with their model stages on WebGPU sessions when asked.
  const stageHost = {
    open: (model, options) => createWebGpuSession(model, checkOptions(options), []),
  };
  let localPipelines = null;
  const Pipeline = createPipelineClass(platform, () =>
    (env.wasm.proxy ? backend() : (localPipelines ||= new LocalPipelines(new LocalBackend(platform, env.wasm), stageHost))));

  return { InferenceSession, Tensor, env, TwinrtError, Pipeline };
}
