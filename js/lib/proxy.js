// Runs sessions in a worker (a Web Worker in browsers, worker_threads in Node) so that the
// calling thread never blocks; same methods as LocalBackend.
import { Tensor } from './tensor.js';
import { TwinrtError } from './errors.js';
import { LocalPipelines, wantsWebGpu } from './pipeline.js';

function revive(x) {
  if (x === null || x === undefined) return null;
  if (Array.isArray(x)) return x.map(revive);
  return new Tensor(x.type, x.data, x.dims);
}

export class ProxyBackend {
  constructor(platform, wasmSettings) {
    this.worker = platform.createWorker();
    this.pending = new Map();
    this.nextCall = 1;
    this.worker.onMessage(({ call, result, error }) => {
      const p = this.pending.get(call);
      this.pending.delete(call);
      if (!this.pending.size && this.worker.busy) this.worker.busy(false);
      if (error) p.reject(new TwinrtError(error.message, error.code));
      else p.resolve(result);
    });
    this.post('init', { wasm: { ...wasmSettings, proxy: false } });
  }

  post(op, args) {
    const call = this.nextCall++;
    return new Promise((resolve, reject) => {
      if (!this.pending.size && this.worker.busy) this.worker.busy(true);
      this.pending.set(call, { resolve, reject });
      this.worker.post({ call, op, args });
    });
  }

  createSession(model, options) { return this.post('create', { model, options }); }

  async run(id, feeds, fetches) {
    const out = await this.post('run', { id, feeds: Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, plainValue(v)])), fetches });
    return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, revive(v)]));
  }

  release(id) { return this.post('release', { id }); }

  // The methods of LocalPipelines (pipeline.js), run in the worker.
  // WebGPU stages run where the GPU device is, the calling thread: not here.
  async pipelineCreate(source, options = {}) {
    if (wantsWebGpu(options))
      throw new TwinrtError("twinrt-web: Pipeline.create: executionProviders 'webgpu' is not available in the proxy worker (env.wasm.proxy): the WebGPU device lives in the calling thread; set env.wasm.proxy = false, or use ['wasm']", 'INVALID_ARGUMENT');
    return this.post('pipelineCreate', { source, options });
  }

  async pipelineRun(id, inputs) {
    const plain = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, plainValue(v)]));
    const { outputs, timings } = await this.post('pipelineRun', { id, inputs: plain });
    return { outputs: Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, revive(v)])), timings };
  }

  pipelineResetState(id) { return this.post('pipelineResetState', { id }); }
  pipelineRelease(id) { return this.post('pipelineRelease', { id }); }
}

// The worker's side: a LocalBackend driven by messages. `port` has post() and onMessage().
export function serveProxy(port, makeBackend) {
  let backend = null, pipelines = null;
  port.onMessage(async ({ call, op, args }) => {
    try {
      let result;
      if (op === 'init') {
        backend = makeBackend(args.wasm);
        pipelines = new LocalPipelines(backend);
      } else if (op === 'create') result = await backend.createSession(args.model, args.options);
      else if (op === 'run') {
        // Feeds stay plain objects: the runtime checks them as it checks any duck-typed tensor.
        const out = await backend.run(args.id, args.feeds, args.fetches);
        result = Object.fromEntries(Object.entries(out).map(([k, v]) => [k, plainValue(v)]));
      } else if (op === 'release') result = await backend.release(args.id);
      else if (op === 'pipelineCreate') result = await pipelines.pipelineCreate(args.source, args.options);
      else if (op === 'pipelineRun') {
        const { outputs, timings } = await pipelines.pipelineRun(args.id, args.inputs);
        result = { outputs: Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, plainValue(v)])), timings };
      } else if (op === 'pipelineResetState') result = await pipelines.pipelineResetState(args.id);
      else if (op === 'pipelineRelease') result = await pipelines.pipelineRelease(args.id);
      port.post({ call, result });
    } catch (e) {
      port.post({ call, error: { message: e.message, code: e.code } });
    }
  });
}

// What crosses to the worker: a tensor's fields (a Tensor's class does not survive
// structured cloning); anything else as it is, to be refused by the worker's checks.
function plainValue(v) {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map(plainValue);
  if (typeof v !== 'object' || ArrayBuffer.isView(v)) return v;  // a Uint8Array is a file's bytes
  return { type: v.type, data: v.data, dims: Array.isArray(v.dims) ? [...v.dims] : v.dims };
}
