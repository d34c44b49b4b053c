// Pipelines (docs/pipelines.md) in twinrt-web: the same pipeline file, runner and glue
// steps (compiled C++) as `twinrt pipeline run`, so the page and the server agree.
//   const p = await Pipeline.create('examples/ocr/ocr.json');
//   const { outputs, timings } = await p.run({ image_file: pngBytes });
import { HeapScope, toValue, fromValue } from './marshal.js';
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

export function createPipelineClass(platform, getBackend) {
  class Pipeline {
    constructor(rt, handle) {
      this._rt = rt;
      this._h = handle;
      this._runs = 0;
      // Which build runs the pipeline: { variant, simd }.
      this.runtime = Object.freeze({ variant: rt.info.variant, simd: rt.info.simd });
    }

    // source: the URL or path of a pipeline file; its models and dictionaries are read
    // from next to it.
    static async create(source) {
      if (typeof source !== 'string' && !(source instanceof URL))
        throw new TypeError('twinrt-web: Pipeline.create takes the URL or path of a pipeline file');
      const src = String(source);
      const text = new TextDecoder().decode(await platform.readSource(src));
      const rt = await getBackend().runtime();
      const listed = callModule(rt, (M, scope) => M._twinrt_pipeline_files(scope.string(text, 'the pipeline file')) >>> 0);
      const files = rt.M.UTF8ToString(listed).split('\n').filter(Boolean);
      files.forEach(checkRelative);
      const data = await Promise.all(files.map((f) => platform.readSource(resolveSource(src, f))));
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
        return new Pipeline(rt, h);
      } finally {
        removeTree(M.FS, root);  // the sessions and steps hold what they read
      }
    }

    // inputs: { name: Tensor | Uint8Array (a file's bytes) | Tensor[] }. Resolves to
    // { outputs: { name: Tensor | Tensor[] }, timings: [{ stage, kind, load_ms, run_ms,
    // model_calls, cold }] }; rejects with the stage, tensor and contract that failed.
    async run(inputs) {
      if (this._h === null) throw new TwinrtError('twinrt-web: the pipeline was released', 'INVALID_ARGUMENT');
      if (!inputs || typeof inputs !== 'object') throw new TypeError('twinrt-web: inputs must be an object');
      const rt = this._rt;
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
          return M2._twinrt_pipeline_run(this._h, f) >>> 0;
        });
        const outputs = {};
        for (let i = 0; i < M._twinrt_outputs_count(outs); i++)
          outputs[M.UTF8ToString(M._twinrt_outputs_name(outs, i) >>> 0)] = fromValue(M, M._twinrt_outputs_value(outs, i) >>> 0);
        const cold = this._runs++ === 0;
        const timings = JSON.parse(M.UTF8ToString(M._twinrt_pipeline_timings(this._h) >>> 0)).map((t) => ({ ...t, cold }));
        return { outputs, timings };
      } finally {
        if (outs) M._twinrt_outputs_free(outs);
        M._twinrt_feeds_free(f);
      }
    }

    // Forgets the state carried between runs (streaming): the next run starts from zeros.
    resetState() {
      if (this._h !== null && !this._rt.dead) this._rt.M._twinrt_pipeline_reset_state(this._h);
    }

    // Frees the pipeline's sessions and steps.
    async release() {
      if (this._h === null) return;
      if (!this._rt.dead) this._rt.M._twinrt_pipeline_free(this._h);
      this._h = null;
    }
  }
  return Pipeline;
}

// The strings of an output: a string tensor's elements, or those of a list of them.
export function outputStrings(value) {
  const tensors = Array.isArray(value) ? value : [value];
  return tensors.flatMap((t) => (t.type === 'string' ? t.data : []));
}
