// Pipelines (docs/pipelines.md) in twinrt-web: the same pipeline file, runner and glue
// steps (compiled C++) as `twinrt pipeline run`, so the page and the server agree.
//   const p = await Pipeline.create('examples/ocr/ocr.json', { executionProviders: ['webgpu', 'wasm'] });
//   const { outputs, timings } = await p.run({ image_file: pngBytes });
// Model stages on WebGPU are "host stages": the C++ run stops there, this file runs the
// stage's model calls on a WebGPU session and resumes the run with the outputs, so glue,
// fan-out, contracts and timings stay in C++.
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

// Adds { name: Tensor | Uint8Array | Tensor[] } to the module's Feeds `f`; `kind` names
// them in errors ('pipeline input').
function addValues(rt, M, scope, f, values, kind) {
  for (const [name, x] of Object.entries(values)) {
    const what = `${kind} '${name}'`;
    const value = x instanceof Uint8Array ? new Tensor('uint8', x, [x.length])
      : Array.isArray(x) ? { sequence: x, elemType: x.length ? x[0].type : 'float32' } : x;
    if (!value || !(value.sequence || value.dims)) throw new TypeError(`twinrt-web: ${what} must be a Tensor, a Uint8Array or a Tensor[]`);
    M._twinrt_feeds_add(f, scope.string(name, what), toValue(M, scope, value, { kind: 'value' }, what, () => { throw rt.lastError(); }));
  }
}

// Builds a Feeds of `values`, calls fn(feeds) and frees them.
function withFeeds(rt, values, kind, fn) {
  const M = rt.M;
  const f = M._twinrt_feeds_new() >>> 0;
  try {
    return rt.call(() => {
      const scope = new HeapScope(M, oom);
      try {
        addValues(rt, M, scope, f, values, kind);
      } finally {
        scope.free();
      }
      return fn(f);
    });
  } finally {
    M._twinrt_feeds_free(f);
  }
}

// Reads a module Outputs list (freed after).
function takeOutputs(M, outs) {
  try {
    return readOutputs(M, outs);
  } finally {
    M._twinrt_outputs_free(outs);
  }
}

const stageError = (stage, e) => new TwinrtError(`stage '${stage}': ${e.message}`, e.code || 'INTERNAL');

// The pipelines of one backend's wasm instance, by id: what a Pipeline calls in this
// thread, and what the proxy worker (env.wasm.proxy) calls on a Pipeline's behalf. Every
// method resolves to plain data (Tensors, numbers, strings).
export class LocalPipelines {
  // stageHost: where model stages may run outside the pipeline's instance (the WebGPU
  // provider): { open(modelBytes, { executionProviders, mode, freeDimensionOverrides }) }
  // resolves to a session ({ run(feeds, fetches), release(), outputNames, runtime }) or to
  // null when the stage should stay here; null: every stage stays here.
  constructor(backend, stageHost = null) {
    this.backend = backend;  // a LocalBackend: its platform reads files, its runtime runs
    this.stageHost = stageHost;
    this.handles = new Map();
    this.nextId = 1;
  }

  // Sessions for the model stages the host runs: Map stage name -> { session, load_ms }.
  async openHostStages(text, files, data, options) {
    const sessions = new Map();
    const { executionProviders = ['wasm'], stageProviders = {} } = options;
    const models = (JSON.parse(text).stages || []).filter((s) => s && typeof s.model === 'string');
    for (const name of Object.keys(stageProviders))
      if (!models.some((s) => s.name === name))
        throw new TwinrtError(`twinrt-web: Pipeline.create: stageProviders: the pipeline has no model stage '${name}'`, 'INVALID_ARGUMENT');
    if (!this.stageHost) return sessions;
    try {
      for (const s of models) {
        const providers = stageProviders[s.name] ?? executionProviders;
        if (!providers.includes('webgpu')) continue;
        const settings = { executionProviders: providers, mode: s.session?.mode, freeDimensionOverrides: s.session?.dims };
        const start = performance.now();
        const session = await this.stageHost.open(data[files.indexOf(s.model)], settings).catch((e) => { throw stageError(s.name, e); });
        if (!session) continue;
        sessions.set(s.name, { session, load_ms: performance.now() - start });
        for (const port of Object.keys(s.outputs || {}))
          if (!session.outputNames.includes(port)) throw new TwinrtError(`stage '${s.name}': the model has no output '${port}'`, 'INVALID_ARGUMENT');
      }
    } catch (e) {
      await releaseSessions(sessions);
      throw e;
    }
    return sessions;
  }

  // source: the URL or path of a pipeline file; its models and dictionaries are read from
  // next to it. options: { executionProviders, stageProviders } (checked by Pipeline.create). Resolves to
  // { id, runtime: { variant, simd, executionProvider, adapter? } }.
  async pipelineCreate(source, options = {}) {
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
    const hosted = await this.openHostStages(text, files, data, options);
    try {
      M.FS.mkdirTree(base);
      files.forEach((f, i) => {
        const path = normalize(`${base}/${f}`);
        M.FS.mkdirTree(path.slice(0, path.lastIndexOf('/')) || '/');
        M.FS.writeFile(path, data[i]);
      });
      const h = callModule(rt, (M2, scope) => M2._twinrt_pipeline_create(scope.string(text, 'the pipeline file'),
        scope.string(base, 'the folder'), scope.string([...hosted.keys()].join('\n'), 'the host stages')) >>> 0);
      const id = this.nextId++;
      this.handles.set(id, { rt, h, hosted, queue: Promise.resolve() });
      const gpu = [...hosted.values()][0];
      return { id, runtime: { variant: rt.info.variant, simd: rt.info.simd, executionProvider: gpu ? gpu.session.runtime.executionProvider : 'wasm',
        ...(gpu ? { adapter: gpu.session.runtime.adapter } : {}) } };
    } catch (e) {
      await releaseSessions(hosted);
      throw e;
    } finally {
      removeTree(M.FS, root);  // the sessions and steps hold what they read
    }
  }

  // Resolves to { outputs: { name: Tensor | Tensor[] }, timings: [{ stage, kind, provider,
  // load_ms, run_ms, model_calls }] }; rejects with the stage, tensor and contract that
  // failed. Runs of one pipeline take turns (a run waits at its host stages).
  pipelineRun(id, inputs) {
    const entry = this.handle(id);
    const run = entry.queue.then(() => this.runNow(entry, inputs));
    entry.queue = run.catch(() => {});
    return run;
  }

  async runNow(entry, inputs) {
    const { rt, h, hosted } = entry;
    const M = rt.M;
    let n = withFeeds(rt, inputs, 'pipeline input', (f) => M._twinrt_pipeline_start(h, f));
    while (n > 0) {
      const { stage, outputs } = JSON.parse(M.UTF8ToString(M._twinrt_pipeline_request(h) >>> 0));
      const answers = [];
      for (let i = 0; i < n; i++) {
        const feeds = takeOutputs(M, callModule(rt, (M2) => M2._twinrt_pipeline_call(h, i) >>> 0));
        answers.push(await hosted.get(stage).session.run(feeds, outputs).catch((e) => { throw stageError(stage, e); }));
      }
      for (const answer of answers)
        if (withFeeds(rt, answer, `stage '${stage}' output`, (f) => M._twinrt_pipeline_answer(h, f)) < 0) throw rt.lastError();
      n = rt.call(() => M._twinrt_pipeline_resume(h));
    }
    if (n < 0) throw rt.lastError();
    const outputs = takeOutputs(M, rt.call(() => M._twinrt_pipeline_outputs(h) >>> 0));
    const timings = JSON.parse(M.UTF8ToString(M._twinrt_pipeline_timings(h) >>> 0)).map((t) => {
      const gpu = hosted.get(t.stage);
      return gpu ? { ...t, provider: gpu.session.runtime.executionProvider, load_ms: gpu.load_ms } : { ...t, provider: 'wasm' };
    });
    return { outputs, timings };
  }

  async pipelineResetState(id) {
    const { rt, h } = this.handle(id);
    if (!rt.dead) rt.M._twinrt_pipeline_reset_state(h);
  }

  // Frees the pipeline and its host stages' sessions (and their GPU buffers), after the
  // run in progress.
  async pipelineRelease(id) {
    const entry = this.handles.get(id);
    this.handles.delete(id);
    if (!entry) return;
    await entry.queue;
    if (!entry.rt.dead) entry.rt.M._twinrt_pipeline_free(entry.h);
    await releaseSessions(entry.hosted);
  }

  handle(id) {
    const entry = this.handles.get(id);
    if (!entry) throw new TwinrtError('twinrt-web: the pipeline was released', 'INVALID_ARGUMENT');
    return entry;
  }
}

async function releaseSessions(sessions) {
  await Promise.all([...sessions.values()].map(({ session }) => session.release()));
  sessions.clear();
}

const PROVIDERS = ['webgpu', 'wasm', 'cpu'];

function providerList(list, what) {
  if (!Array.isArray(list) || !list.length)
    throw new TwinrtError(`twinrt-web: Pipeline.create: ${what} must be a non-empty array`, 'INVALID_ARGUMENT');
  return list.map((ep) => {
    const name = typeof ep === 'string' ? ep : ep && ep.name;
    if (!PROVIDERS.includes(name))
      throw new TwinrtError(`twinrt-web: Pipeline.create: ${what}: '${name}' is not available (pipelines run 'webgpu' and 'wasm')`, 'INVALID_ARGUMENT');
    return name;
  });
}

// -> { executionProviders, stageProviders: { stage: providers } }
function checkProviders(options) {
  if (!options || typeof options !== 'object') throw new TypeError('twinrt-web: Pipeline.create: options must be an object');
  const stages = options.stageProviders ?? {};
  if (typeof stages !== 'object' || Array.isArray(stages))
    throw new TwinrtError('twinrt-web: Pipeline.create: stageProviders must be an object of provider lists by stage name', 'INVALID_ARGUMENT');
  return {
    executionProviders: providerList(options.executionProviders ?? ['wasm'], 'executionProviders'),
    stageProviders: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, providerList(v, `stageProviders.${k}`)])),
  };
}

// Whether any model stage may go to WebGPU.
export const wantsWebGpu = (o) => [o.executionProviders || [], ...Object.values(o.stageProviders || {})].some((l) => l.includes('webgpu'));

// host(): where pipelines run — a LocalPipelines, or the proxy worker's (same methods).
export function createPipelineClass(platform, host) {
  class Pipeline {
    constructor(pipelines, info) {
      this._host = pipelines;
      this._id = info.id;
      this._runs = 0;
      // Which build runs the pipeline: { variant, simd, executionProvider: 'webgpu' when a
      // model stage runs there, else 'wasm'; adapter }.
      this.runtime = Object.freeze(info.runtime);
    }

    // source: the URL or path of a pipeline file; its models and dictionaries are read
    // from next to it. options.executionProviders: ['wasm'] (the default) or ['webgpu',
    // 'wasm'] (model stages on WebGPU, on wasm without an adapter) or ['webgpu'] (rejects
    // without an adapter); options.stageProviders: { stage: providers } for single stages.
    static async create(source, options = {}) {
      if (typeof source !== 'string' && !(source instanceof URL))
        throw new TypeError('twinrt-web: Pipeline.create takes the URL or path of a pipeline file');
      const providers = checkProviders(options);
      // A worker resolves relative URLs against its own script: resolve against the page.
      const src = !platform.isNode && typeof location === 'object' ? new URL(String(source), location.href).href : String(source);
      const pipelines = host();
      return new Pipeline(pipelines, await pipelines.pipelineCreate(src, providers));
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
