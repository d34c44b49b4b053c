// Pipelines (docs/pipelines.md) in twinrt-web: the same pipeline file, runner and glue
// steps (compiled C++) as `twinrt pipeline run`, so the page and the server agree.
//   const p = await Pipeline.create('examples/ocr/ocr.json');
//   const { outputs, timings } = await p.run({ image_file: pngBytes });
import { HeapScope, toValue, readOutputs } from './marshal.js';
import { removeTree } from './runtime.js';
import { Tensor } from './tensor.js';
import { TwinrtError } from './errors.js';

const oom = (m) => new TwinrtError(m, 'OUT_OF_MEMORY');
let nextDir = 0;

// A file named in the pipeline, relative to the pipeline's URL or path.
function resolveSource(base, rel) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(base)) return new URL(rel, base).href;
  const slash = base.lastIndexOf('/');
  return (slash >= 0 ? base.slice(0, slash + 1) : '') + rel;
}

function checkRelative(rel) {
  if (rel.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(rel))
    throw new TwinrtError(`twinrt-web: the pipeline names '${rel}': files must be relative to the pipeline file`, 'INVALID_ARGUMENT');
}

// "/a/b/../c" -> "/a/c"
function normalize(path) {
  const out = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

// Calls into the module with a heap scope; a null result throws the module's error.
function callModule(rt, fn) {
  return rt.call(() => {
    const scope = new HeapScope(rt.M, oom);
    try {
      const r = fn(rt.M, scope);
      if (!r) throw rt.lastError();
      return r;
    } finally {
      scope.free();
    }
  });
}

// The pipelines of one backend's wasm instance, by id: what a Pipeline calls in this
// thread, and what the proxy worker (env.wasm.proxy) calls on a Pipeline's behalf. Every
// method resolves to plain data (Tensors, numbers, strings).
export class LocalPipelines {
  constructor(backend) {
    this.backend = backend;  // a LocalBackend: its platform reads files, its runtime runs
    this.handles = new Map();
    this.nextId = 1;
  }

  // source: the URL or path of a pipeline file; its models and dictionaries are read from
  // next to it. Resolves to { id, runtime: { variant, simd } }.
  async pipelineCreate(source) {
    const platform = this.backend.platform;
    const text = new TextDecoder().decode(await platform.readSource(source));
    const rt = await this.backend.runtime();
    const listed = callModule(rt, (M, scope) => M._twinrt_pipeline_files(scope.string(text, 'the pipeline file')) >>> 0);
    const files = rt.M.UTF8ToString(listed).split('\n').filter(Boolean);
    files.forEach(checkRelative);
    const data = await Promise.all(files.map((f) => platform.readSource(resolveSource(source, f))));
    // The pipeline's folder is nested deep enough that every '../' stays inside root.
    const depth = Math.max(0, ...files.map((f) => f.split('/').filter((p) => p === '..').length));
    const root = `/twinrt-pipelines/${nextDir++}`;
    const base = root + '/d'.repeat(depth);
    const M = rt.M;
    try {
      M.FS.mkdirTree(base);
      files.forEach((f, i) => {
        const path = normalize(`${base}/${f}`);
        M.FS.mkdirTree(path.slice(0, path.lastIndexOf('/')) || '/');
        M.FS.writeFile(path, data[i]);
      });
      const h = callModule(rt, (M2, scope) =>
        M2._twinrt_pipeline_create(scope.string(text, 'the pipeline file'), scope.string(base, 'the folder')) >>> 0);
      const id = this.nextId++;
      this.handles.set(id, { rt, h });
      return { id, runtime: { variant: rt.info.variant, simd: rt.info.simd } };
    } finally {
      removeTree(M.FS, root);  // the sessions and steps hold what they read
    }
  }

  // Resolves to { outputs: { name: Tensor | Tensor[] }, timings: [{ stage, kind, load_ms,
  // run_ms, model_calls }] }; rejects with the stage, tensor and contract that failed.
  async pipelineRun(id, inputs) {
    const { rt, h } = this.handle(id);
    const M = rt.M;
    const f = M._twinrt_feeds_new() >>> 0;
    let outs = 0;
    try {
      outs = callModule(rt, (M2, scope) => {
        for (const [name, x] of Object.entries(inputs)) {
          const what = `pipeline input '${name}'`;
          const value = x instanceof Uint8Array ? new Tensor('uint8', x, [x.length])
            : Array.isArray(x) ? { sequence: x, elemType: x.length ? x[0].type : 'float32' } : x;
          if (!value || !(value.sequence || value.dims)) throw new TypeError(`twinrt-web: ${what} must be a Tensor, a Uint8Array or a Tensor[]`);
          M2._twinrt_feeds_add(f, scope.string(name, what), toValue(M2, scope, value, { kind: 'value' }, what, () => { throw rt.lastError(); }));
        }
        return M2._twinrt_pipeline_run(h, f) >>> 0;
      });
      const outputs = readOutputs(M, outs);
      const timings = JSON.parse(M.UTF8ToString(M._twinrt_pipeline_timings(h) >>> 0));
      return { outputs, timings };
    } finally {
      if (outs) M._twinrt_outputs_free(outs);
      M._twinrt_feeds_free(f);
    }
  }

  async pipelineResetState(id) {
    const { rt, h } = this.handle(id);
    if (!rt.dead) rt.M._twinrt_pipeline_reset_state(h);
  }

  async pipelineRelease(id) {
    const entry = this.handles.get(id);
    this.handles.delete(id);
    if (entry && !entry.rt.dead) entry.rt.M._twinrt_pipeline_free(entry.h);
  }

  handle(id) {
    const entry = this.handles.get(id);
    if (!entry) throw new TwinrtError('twinrt-web: the pipeline was released', 'INVALID_ARGUMENT');
    return entry;
  }
}

// host(): where pipelines run — a LocalPipelines, or the proxy worker's (same methods).
export function createPipelineClass(platform, host) {
  class Pipeline {
    constructor(pipelines, info) {
      this._host = pipelines;
      this._id = info.id;
      this._runs = 0;
      // Which build runs the pipeline: { variant, simd }.
      this.runtime = Object.freeze(info.runtime);
    }

    // source: the URL or path of a pipeline file; its models and dictionaries are read
    // from next to it.
    static async create(source) {
      if (typeof source !== 'string' && !(source instanceof URL))
        throw new TypeError('twinrt-web: Pipeline.create takes the URL or path of a pipeline file');
      // A worker resolves relative URLs against its own script: resolve against the page.
      const src = !platform.isNode && typeof location === 'object' ? new URL(String(source), location.href).href : String(source);
      const pipelines = host();
      return new Pipeline(pipelines, await pipelines.pipelineCreate(src));
    }

    // inputs: { name: Tensor | Uint8Array (a file's bytes) | Tensor[] }. Resolves to
    // { outputs: { name: Tensor | Tensor[] }, timings: [{ stage, kind, load_ms, run_ms,
    // model_calls, cold }] }; rejects with the stage, tensor and contract that failed.
    async run(inputs) {
      if (this._id === null) throw new TwinrtError('twinrt-web: the pipeline was released', 'INVALID_ARGUMENT');
      if (!inputs || typeof inputs !== 'object') throw new TypeError('twinrt-web: inputs must be an object');
      const { outputs, timings } = await this._host.pipelineRun(this._id, inputs);
      const cold = this._runs++ === 0;
      return { outputs, timings: timings.map((t) => ({ ...t, cold })) };
    }

    // Forgets the state carried between runs (streaming): the next run starts from zeros.
    async resetState() {
      if (this._id !== null) await this._host.pipelineResetState(this._id);
    }

    // Frees the pipeline's sessions and steps.
    async release() {
      if (this._id === null) return;
      const id = this._id;
      this._id = null;
      await this._host.pipelineRelease(id);
    }
  }
  return Pipeline;
}

// The strings of an output: a string tensor's elements, or those of a list of them.
export function outputStrings(value) {
  const tensors = Array.isArray(value) ? value : [value];
  return tensors.flatMap((t) => (t.type === 'string' ? t.data : []));
}
