// Runs a session's compiled plan node by node: on the GPU where a WGSL kernel takes the
// node (float32 data, attributes it knows), else on the wasm kernel of that very step
// (js/src/graph_binding.cc), moving tensors between GPU buffers and the CPU as needed.
import { Tensor } from '../tensor.js';
import { TwinrtError } from '../errors.js';
import { checkFeeds } from '../feeds.js';
import { kernels as elementwise } from './elementwise.js';
import { kernels as matmul } from './matmul.js';
import { kernels as conv } from './conv.js';
import { kernels as pool } from './pool.js';
import { kernels as softmax } from './softmax.js';
import { kernels as layout } from './layout.js';
import { kernels as norm } from './norm.js';
import { kernels as reduce } from './reduce.js';
import { kernels as select } from './select.js';
import { kernels as resize } from './resize.js';
import { kernels as convTranspose } from './convtranspose.js';
import { kernels as cast } from './cast.js';
import { GPU_TYPES, typeOf } from './types.js';
import { TYPED_ARRAYS } from '../tensor.js';

const KERNELS = { ...elementwise, ...matmul, ...conv, ...pool, ...softmax, ...layout, ...norm, ...reduce, ...select, ...resize, ...convTranspose, ...cast };

// Kernels that take float16 data (with `shader-f16`): those whose outputs all have their
// data inputs' type, read through f16.js. LayerNormalization (float32 statistics outputs),
// BatchNormalization, Resize and ConvTranspose are not among them yet.
const F16_OPS = new Set(['Add', 'Sub', 'Mul', 'Div', 'Relu', 'Sigmoid', 'Tanh', 'Exp', 'Sqrt', 'Erf', 'HardSwish',
  'HardSigmoid', 'LeakyRelu', 'Clip', 'ai.twinrt:FusedElementwise', 'MatMul', 'Gemm', 'Conv', 'MaxPool', 'AveragePool',
  'GlobalAveragePool', 'Softmax', 'Reshape', 'Flatten', 'Squeeze', 'Unsqueeze', 'Identity', 'Transpose', 'Concat',
  'ReduceSum', 'ReduceMean', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'ReduceL1', 'ReduceL2', 'ReduceSumSquare', 'ReduceLogSum',
  'ReduceLogSumExp', 'Slice', 'Gather', 'GatherElements', 'GatherND', 'Split', 'Where']);

// A value of the run: a CPU Tensor, a GPU buffer (float32), or both.
class Slot {
  constructor(type, dims, tensor = null, buffer = null) {
    Object.assign(this, { type, dims, tensor, buffer });
  }
}

const numel = (dims) => dims.reduce((a, b) => a * b, 1);
const invalid = (message) => new TwinrtError(message, 'INVALID_ARGUMENT');

// What the wasm session checks in C++ (runtime/feed_check.cc), checked here because the
// executor never calls Session::run: names, element types and fixed dims.
function checkAgainstMetadata(checked, inputMetadata) {
  const meta = new Map(inputMetadata.map((m) => [m.name, m]));
  for (const [name, x] of checked) {
    const m = meta.get(name);
    if (!m) throw invalid(`the model has no input named '${name}'`);
    if (!m.isTensor || x === null || x.sequence) throw invalid(`input '${name}': the WebGPU provider takes tensor inputs only`);
    if (x.type !== m.type) throw invalid(`input '${name}' must be ${m.type}, got ${x.type}`);
    // An empty shape is also what an input of unknown rank reports: not checked then.
    const fits = !m.shape.length || x.dims.length === m.shape.length && m.shape.every((d, k) => typeof d !== 'number' || d < 0 || d === x.dims[k]);
    if (!fits) throw invalid(`input '${name}' must have shape [${m.shape}], got [${x.dims}]`);
  }
  for (const m of inputMetadata)
    if (!checked.some(([name]) => name === m.name)) throw invalid(`input '${m.name}' was not given`);
}

// A GPU tensor feed (Tensor.fromGpuBuffer) as a checked value { type, dims, buffer }.
function checkGpuFeed(name, x) {
  if (x.location === 'none') throw invalid(`input '${name}': the GPU tensor was disposed`);
  if (x.type !== 'float32' || !x.gpuBuffer) throw invalid(`input '${name}': GPU tensor inputs are float32 tensors with a gpuBuffer`);
  const dims = Array.from(x.dims || []);
  if (!dims.every((d) => Number.isSafeInteger(d) && d >= 0) || numel(dims) * 4 > x.gpuBuffer.size)
    throw invalid(`input '${name}': dims [${dims}] do not fit its GPUBuffer of ${x.gpuBuffer.size} bytes`);
  return { type: x.type, dims, buffer: x.gpuBuffer };
}

// Value name -> index of the last step that reads it (Infinity for the graph's outputs);
// a value no step reads has no entry.
function lastReaders(plan) {
  const last = new Map();
  plan.steps.forEach((step, index) => {
    for (const name of [...step.inputs, ...step.implicit]) if (name) last.set(name, index);
  });
  for (const name of plan.outputs) last.set(name, Infinity);
  return last;
}

// A GPU tensor, disposed or not (checkGpuFeed refuses a disposed one).
const onGpu = (x) => !!x && !!x.gpuBuffer;

export class WebGpuExecutor {
  // runtime: the WasmRuntime holding session `id`; gpu: a Gpu (device.js); outputLocation:
  // preferredOutputLocation ('cpu', 'gpu-buffer' or { outputName: either }).
  constructor(runtime, id, gpu, inputMetadata, outputLocation = 'cpu') {
    this.rt = runtime;
    this.id = id;
    this.gpu = gpu;
    this.inputMetadata = inputMetadata;
    this.outputLocation = outputLocation;
    this.plan = runtime.graph(id);
    this.constantNames = new Set(this.plan.constants);
    this.constants = new Map();  // name -> Slot, uploaded once and kept for every run
    this.lastReader = lastReaders(this.plan);
    this.placement = [];
  }

  constant(name) {
    let s = this.constants.get(name);
    if (!s) {
      const t = this.rt.constant(this.id, name);
      if (!t || Array.isArray(t)) return null;
      s = new Slot(t.type, [...t.dims], t);
      s.constant = true;
      this.constants.set(name, s);
    }
    return s;
  }

  async run(feeds, fetches) {
    const entries = Object.entries(feeds);
    const checked = [...checkFeeds(Object.fromEntries(entries.filter(([, x]) => !onGpu(x))), this.inputMetadata),
      ...entries.filter(([, x]) => onGpu(x)).map(([name, x]) => [name, checkGpuFeed(name, x)])];
    checkAgainstMetadata(checked, this.inputMetadata);
    return this.gpu.exclusive(() => this.runChecked(checked, fetches));
  }

  async runChecked(checked, fetches) {
    const values = new Map();
    // A GPU feed is read where it is, never freed by the run.
    for (const [name, x] of checked)
      values.set(name, x.buffer ? new Slot(x.type, [...x.dims], null, x.buffer) : new Slot(x.type, [...x.dims], new Tensor(x.type, x.data, x.dims)));
    const created = new Set();  // buffers of this run not yet freed
    const placement = [];
    const device = this.gpu.device;
    device.pushErrorScope('out-of-memory');
    device.pushErrorScope('validation');
    let failure = null;
    try {
      for (let index = 0; index < this.plan.steps.length; index++) {
        const step = this.plan.steps[index];
        const ins = step.inputs.map((name) => {
          if (!name) return null;
          const v = values.get(name) || (this.constantNames.has(name) && this.constant(name));
          if (!v) throw new TwinrtError(`twinrt-web: ${step.op} '${step.name}': value '${name}' is not available`, 'INTERNAL');
          return v;
        });
        const why = await this.runOnGpu(step, ins, values, created);
        if (why !== null) await this.runOnWasm(index, step, ins, values);
        placement.push(why === null ? { node: step.name, op: step.op, ep: 'webgpu' } : { node: step.name, op: step.op, ep: 'wasm', reason: why });
        this.freeDead(index, values, created);
      }
      const result = {};
      for (const name of this.plan.outputs)
        if (!fetches || !fetches.length || fetches.includes(name))
          result[name] = await this.output(name, values.get(name) || this.constant(name));
      this.placement = placement;
      return result;
    } catch (e) {
      failure = e;
      throw e;
    } finally {
      const errors = [await device.popErrorScope(), await device.popErrorScope()].filter(Boolean);
      for (const b of created) b.destroy();
      if (errors.length && !failure) throw new TwinrtError(`webgpu: ${errors.map((e) => e.message).join('; ')}`, 'INTERNAL');
    }
  }

  // After step `index`: forgets the values no later step reads (the outputs stay) and frees
  // this run's buffers that no remaining value holds: a dead value's own buffer (unless a
  // Reshape-like output still shares it), a step's tables and packed operands. Work already
  // submitted that reads a freed buffer still completes (WebGPU defers the release).
  freeDead(index, values, created) {
    for (const name of values.keys()) if (!(this.lastReader.get(name) > index)) values.delete(name);
    const held = new Set([...values.values()].map((v) => v.buffer));
    for (const b of created) {
      if (held.has(b)) continue;
      b.destroy();
      created.delete(b);
    }
  }

  // Runs the step on the GPU when a kernel takes it; returns null then, else why not.
  async runOnGpu(step, ins, values, created) {
    const op = step.domain ? `${step.domain}:${step.op}` : step.op;
    const kernel = KERNELS[op];
    if (!kernel) return `no WGSL kernel for ${op}`;
    if (step.implicit.length) return 'reads values of enclosing graphs';
    // Inputs the kernel reads on the CPU: indices, or a function of the input count.
    const cpu = typeof kernel.cpuInputs === 'function' ? kernel.cpuInputs(ins.length) : kernel.cpuInputs || [];
    if (!ins.some(Boolean)) return 'no inputs';
    const data = ins.map((v, k) => (v && !cpu.includes(k) ? v : null));
    const first = data.find(Boolean);
    // kernel.types: a kernel that converts (Cast); the others read one float type.
    const types = kernel.types || (F16_OPS.has(op) ? ['float32', 'float16'] : ['float32']);
    for (let k = 0; k < ins.length; k++) {
      const v = data[k];
      if (!v) continue;
      if (v.type === 'float16' && !this.gpu.f16) return `input ${k} is float16 (the adapter has no shader-f16)`;
      if (v.type === 'float16' && !types.includes('float16')) return `input ${k} is float16 (the ${op} kernel is float32 only)`;
      if (!types.includes(v.type)) return `input ${k} is ${v.type}`;
      if (v.type !== first.type) return `input ${k} is ${v.type}, input ${data.indexOf(first)} ${first.type}`;
      if (v.sequence || v.empty) return `input ${k} is not a tensor`;
    }
    const views = [];
    for (let k = 0; k < ins.length; k++) {
      const v = ins[k];
      if (!v) views.push(null);
      else if (cpu.includes(k)) views.push({ type: v.type, dims: v.dims, data: (await this.toCpu(v)).data });
      else views.push({ type: v.type, dims: v.dims, onGpu: !!v.buffer });
    }
    const ctx = { opset: this.plan.opset, keep: created, f16: this.gpu.f16 };
    const problem = kernel.check(step, views, ctx);
    if (problem !== null) return problem;
    for (let k = 0; k < ins.length; k++)
      if (ins[k] && !cpu.includes(k)) views[k].buffer = this.toGpu(ins[k], created);
    const outs = kernel.run(this.gpu, step, views, ctx);
    outs.forEach((o, k) => {
      if (!views.some((v) => v && v.buffer === o.buffer)) created.add(o.buffer);
      if (step.outputs[k]) values.set(step.outputs[k], new Slot(typeOf(o.buffer), o.dims, null, o.buffer));
    });
    return null;
  }

  async runOnWasm(index, step, ins, values) {
    const feeds = {};
    const names = [...step.inputs, ...step.implicit];
    const slots = [...ins, ...step.implicit.map((n) => values.get(n) || this.constant(n))];
    for (let k = 0; k < names.length; k++) {
      const [name, v] = [names[k], slots[k]];
      if (!name || !v || this.constantNames.has(name)) continue;
      if (v.empty) feeds[name] = null;
      else feeds[name] = v.sequence ? { sequence: v.sequence, elemType: v.type } : await this.toCpu(v);
    }
    const outs = this.rt.runStep(this.id, index, feeds);
    for (const [name, t] of Object.entries(outs)) {
      // An empty optional (null) goes back to wasm as one; an optional's content comes
      // back unwrapped, as run() returns it.
      if (t === null) values.set(name, Object.assign(new Slot('undefined', []), { empty: true }));
      else if (Array.isArray(t)) values.set(name, Object.assign(new Slot(t[0]?.type, []), { sequence: t }));
      else values.set(name, new Slot(t.type, [...t.dims], t));
    }
  }

  toGpu(v, created) {
    if (!v.buffer) {
      v.buffer = this.gpu.upload(v.tensor.data, v.type);
      if (!v.constant) created.add(v.buffer);
    }
    return v.buffer;
  }

  // An output where preferredOutputLocation asks for it: a float32 tensor in a GPUBuffer of
  // its own (a copy: the run frees its buffers, and an output may share a weight's), else
  // on the CPU.
  async output(name, v) {
    const where = typeof this.outputLocation === 'string' ? this.outputLocation : this.outputLocation[name] || 'cpu';
    if (where !== 'gpu-buffer' || v.type !== 'float32' || v.sequence || v.empty) return this.toCpu(v);
    const n = numel(v.dims);
    const buffer = v.buffer ? this.gpu.copy(v.buffer, n * 4) : this.gpu.upload(v.tensor.data);
    return Tensor.fromGpuBuffer(buffer, {
      dataType: 'float32', dims: v.dims,
      download: async () => new Float32Array((await this.gpu.download(buffer, n * 4)).buffer, 0, n),
      dispose: () => buffer.destroy(),
    });
  }

  async toCpu(v) {
    if (v.empty) return null;
    if (v.sequence) return v.sequence;
    if (!v.tensor) {
      const n = numel(v.dims);
      const bytes = await this.gpu.download(v.buffer, n * GPU_TYPES[v.type].bytes);
      v.tensor = new Tensor(v.type, new TYPED_ARRAYS[v.type](bytes.buffer, 0, n), v.dims);
    }
    return v.tensor;
  }

  release() {
    for (const s of this.constants.values()) if (s.buffer) s.buffer.destroy();
    this.constants.clear();
  }
}
