// One instance of the WebAssembly module and the sessions in it, called synchronously.
// The session API (session.js) uses it directly or through a worker (proxy.js).
import { HeapScope, toValue, readOutputs, readTensor } from './marshal.js';
import { checkFeeds } from './feeds.js';
import { STATUS_NAMES, TYPE_OF_CODE } from './dtypes.js';
import { TwinrtError } from './errors.js';

export { TwinrtError };

// SessionOptions' mode as twinrt_options_new takes it (js/src/binding.cc).
const MODE_CODES = { default: 0, reference: 1, exact: 2 };
const oom = (m) => new TwinrtError(m, 'OUT_OF_MEMORY');
let nextModelDir = 0;

function ioMetadata(M, h, output, i) {
  const name = M.UTF8ToString(M._twinrt_session_io_name(h, output, i) >>> 0);
  const kind = M.UTF8ToString(M._twinrt_session_io_kind(h, output, i) >>> 0);
  const type = TYPE_OF_CODE[M._twinrt_session_io_dtype(h, output, i)] || 'undefined';
  const rank = M._twinrt_session_io_rank(h, output, i);
  const shape = [];
  for (let d = 0; d < rank; d++) {
    const v = M._twinrt_session_io_dim(h, output, i, d);
    shape.push(v >= 0 ? v : M.UTF8ToString(M._twinrt_session_io_dim_name(h, output, i, d) >>> 0));
  }
  if (kind === 'tensor') return { name, isTensor: true, type, shape };
  // twinrt also runs sequences and optionals: their element type (and, for an optional,
  // whether it holds a tensor or a sequence) is reported too.
  return { name, isTensor: false, kind, type, shape };
}

export class WasmRuntime {
  // M: the instantiated module; info: { variant, simd, threads (pool size + 1) }.
  constructor(M, info) {
    this.M = M;
    this.info = info;
    this.sessions = new Map();
    this.nextId = 1;
    this.dead = null;  // the abort that killed the instance, if any
    M._twinrt_init(Math.max(0, info.threads - 1));
  }

  // Every call into the module goes through here: a C++ error becomes a TwinrtError, an
  // abort of the instance marks it dead (session.js then starts a new one).
  call(fn) {
    if (this.dead) throw new TwinrtError(`twinrt-web: the WebAssembly instance stopped: ${this.dead}`, 'ABORTED');
    try {
      return fn();
    } catch (e) {
      if (e instanceof TwinrtError || e instanceof TypeError || e instanceof RangeError) throw e;
      this.dead = e && e.message ? e.message : String(e);
      throw new TwinrtError(`twinrt-web: the WebAssembly instance stopped: ${this.dead}`, 'ABORTED');
    }
  }

  lastError() {
    const M = this.M;
    return new TwinrtError(M.UTF8ToString(M._twinrt_last_error() >>> 0), STATUS_NAMES[M._twinrt_last_error_code()] || 'INTERNAL');
  }

  // model: Uint8Array. options: { mode, threads, dims: {name: n}, maxTensorBytes, maxMemoryBytes,
  // externalData: [{path, data: Uint8Array}] }
  createSession(model, options) {
    return this.call(() => {
      const M = this.M;
      const scope = new HeapScope(M, oom);
      let opts = 0, dir = null;
      try {
        opts = M._twinrt_options_new(MODE_CODES[options.mode] ?? 0, options.threads || 0) >>> 0;
        for (const [name, value] of Object.entries(options.dims || {}))
          if (!M._twinrt_options_add_dim(opts, scope.string(name, 'freeDimensionOverrides'), Number(value))) throw this.lastError();
        if (!M._twinrt_set_limits(options.maxTensorBytes || 0, options.maxMemoryBytes || 0)) throw this.lastError();
        let h;
        if (options.externalData && options.externalData.length) {
          dir = `/twinrt-models/${nextModelDir++}`;
          M.FS.mkdirTree(dir);
          M.FS.writeFile(`${dir}/model.onnx`, model);
          for (const { path, data } of options.externalData) {
            const rel = String(path).replace(/^\.\//, '');
            if (rel.startsWith('/') || rel.split('/').includes('..'))
              throw new TwinrtError(`externalData path '${path}' must stay next to the model`, 'INVALID_ARGUMENT');
            const parent = rel.split('/').slice(0, -1).join('/');
            if (parent) M.FS.mkdirTree(`${dir}/${parent}`);
            M.FS.writeFile(`${dir}/${rel}`, data);
          }
          h = M._twinrt_session_load(scope.string(`${dir}/model.onnx`, 'the model path'), opts) >>> 0;
        } else {
          h = M._twinrt_session_create(scope.bytes(model, 'the model'), model.byteLength, opts) >>> 0;
        }
        if (!h) throw this.lastError();
        const id = this.nextId++;
        const nIn = M._twinrt_session_io_count(h, 0), nOut = M._twinrt_session_io_count(h, 1);
        const inputMetadata = [], outputMetadata = [];
        for (let i = 0; i < nIn; i++) inputMetadata.push(ioMetadata(M, h, 0, i));
        for (let i = 0; i < nOut; i++) outputMetadata.push(ioMetadata(M, h, 1, i));
        this.sessions.set(id, { h, inputMetadata });
        return { id, inputMetadata, outputMetadata, threads: M._twinrt_session_threads(h) };
      } finally {
        if (opts) M._twinrt_options_free(opts);
        if (dir) removeTree(M.FS, dir);
        scope.free();
      }
    });
  }

  // feeds: {name: Tensor | Tensor[] | null}; fetches: names to return (all when empty).
  run(id, feeds, fetches) {
    const s = this.sessions.get(id);
    if (!s) throw new TwinrtError('twinrt-web: the session was released', 'INVALID_ARGUMENT');
    // Every feed is checked before anything is allocated in the heap, and outside call():
    // an exception from the caller's own getters must not mark the instance dead.
    const checked = checkFeeds(feeds, s.inputMetadata);
    return this.call(() => {
      const M = this.M;
      const scope = new HeapScope(M, oom);
      const f = M._twinrt_feeds_new() >>> 0;
      let outs = 0;
      try {
        const meta = Object.fromEntries(s.inputMetadata.map((m) => [m.name, m]));
        for (const [name, x] of checked) {
          const m = meta[name];
          const what = `input '${name}'`;
          const namePtr = scope.string(name, what);
          const v = toValue(M, scope, x, m && { kind: m.isTensor ? 'tensor' : m.kind }, what, () => { throw this.lastError(); });
          M._twinrt_feeds_add(f, namePtr, v);
        }
        outs = M._twinrt_session_run(s.h, f) >>> 0;
        if (!outs) throw this.lastError();
        return readOutputs(M, outs, (name) => !fetches || !fetches.length || fetches.includes(name));
      } finally {
        if (outs) M._twinrt_outputs_free(outs);
        M._twinrt_feeds_free(f);
        scope.free();
      }
    });
  }

  // The compiled plan for the WebGPU executor (js/src/graph_binding.cc).
  graph(id) {
    const s = this.session(id);
    return this.call(() => JSON.parse(this.M.UTF8ToString(this.M._twinrt_graph_json(s.h) >>> 0)));
  }

  // A constant of the plan as a Tensor (null when there is none by that name).
  constant(id, name) {
    const s = this.session(id);
    return this.call(() => {
      const scope = new HeapScope(this.M, oom);
      try {
        const t = this.M._twinrt_graph_constant(s.h, scope.string(name, 'a constant name')) >>> 0;
        return t ? readTensor(this.M, t) : null;
      } finally {
        scope.free();
      }
    });
  }

  // Runs step `index` of the plan alone on the wasm kernels. inputs: {name: Tensor, an
  // array of them (sequence) or null (empty optional)} for its non-constant inputs; returns
  // the outputs the same way.
  runStep(id, index, inputs) {
    const s = this.session(id);
    return this.call(() => {
      const M = this.M;
      const scope = new HeapScope(M, oom);
      const f = M._twinrt_feeds_new() >>> 0;
      let outs = 0;
      try {
        for (const [name, x] of Object.entries(inputs)) {
          const what = `value '${name}'`;
          const meta = x === null ? { kind: 'optional' } : null;  // null: an empty optional
          M._twinrt_feeds_add(f, scope.string(name, what), toValue(M, scope, x, meta, what, () => { throw this.lastError(); }));
        }
        outs = M._twinrt_graph_run_step(s.h, index, f) >>> 0;
        if (!outs) throw this.lastError();
        return readOutputs(M, outs);
      } finally {
        if (outs) M._twinrt_outputs_free(outs);
        M._twinrt_feeds_free(f);
        scope.free();
      }
    });
  }

  session(id) {
    const s = this.sessions.get(id);
    if (!s) throw new TwinrtError('twinrt-web: the session was released', 'INVALID_ARGUMENT');
    return s;
  }

  release(id) {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    if (!this.dead) this.M._twinrt_session_free(s.h);
  }
}

export function removeTree(FS, path) {
  for (const name of FS.readdir(path)) {
    if (name === '.' || name === '..') continue;
    const p = `${path}/${name}`;
    if (FS.isDir(FS.stat(p).mode)) removeTree(FS, p);
    else FS.unlink(p);
  }
  FS.rmdir(path);
}
