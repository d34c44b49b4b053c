// The GPU side of the WebGPU executor: one device, buffers, readbacks and compute passes.
//
// Kernels are WGSL generated per node with the shapes baked in as constants (compiled once
// per distinct source, cached). Each invocation writes output elements of its own, in an
// order fixed by the source: no atomics, no split reductions, so a run's bits depend only
// on the adapter.
import { TwinrtError } from '../errors.js';
import { helpersFor } from './math.js';
import { adaptBody } from './f16.js';
import { GPU_TYPES, tagType, typeOf } from './types.js';

const WORKGROUP = 64;
const MAX_GROUPS_X = 65535;

let devicePromise = null;

// The shared device, or null when this environment offers no WebGPU adapter.
export function getDevice() {
  if (!devicePromise) {
    devicePromise = (async () => {
      const gpu = globalThis.navigator && navigator.gpu;
      if (!gpu) return null;
      const adapter = await gpu.requestAdapter();
      if (!adapter) return null;
      // float16 kernels need the feature on the device; without it float16 nodes run on wasm.
      const f16 = adapter.features.has('shader-f16');
      const device = await adapter.requestDevice(f16 ? { requiredFeatures: ['shader-f16'] } : {});
      const info = adapter.info || {};
      return new Gpu(device, `${info.vendor || 'unknown'} ${info.architecture || info.description || ''}`.trim(), { f16 });
    })();
    devicePromise.catch(() => { devicePromise = null; });
  }
  return devicePromise;
}

export class Gpu {
  // f16: the device has `shader-f16`.
  constructor(device, adapterName, { f16 = false } = {}) {
    this.device = device;
    this.adapterName = adapterName;
    this.f16 = f16;
    this.pipelines = new Map();
    this.lost = null;
    this.tail = Promise.resolve();
    device.lost.then((info) => { this.lost = info.message || 'device lost'; });
  }

  // Runs `fn` (async) after every run queued before it: a run's error scopes must not
  // catch another run's errors.
  exclusive(fn) {
    const result = this.tail.then(fn);
    this.tail = result.catch(() => {});
    return result;
  }

  // A storage buffer of `bytes` (at least 4: WebGPU has no empty bindings).
  buffer(bytes) {
    const B = GPUBufferUsage;
    return this.device.createBuffer({ size: Math.max(4, Math.ceil(bytes / 4) * 4), usage: B.STORAGE | B.COPY_SRC | B.COPY_DST });
  }

  // `typed` as a new buffer holding elements of `type` (types.js).
  upload(typed, type = 'float32') {
    const buf = tagType(this.buffer(typed.byteLength), type);
    if (typed.byteLength % 4) {
      const padded = new Uint8Array(Math.ceil(typed.byteLength / 4) * 4);
      padded.set(new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength));
      this.device.queue.writeBuffer(buf, 0, padded);
    } else if (typed.byteLength) {
      this.device.queue.writeBuffer(buf, 0, typed.buffer, typed.byteOffset, typed.byteLength);
    }
    return buf;
  }

  // One buffer holding `buffers` back to back (`sizes` f32 each) and their offsets: for
  // kernels that read more tensors than a shader may bind. `keep` receives it (the run frees it).
  pack(buffers, sizes, keep) {
    // Offsets count f32 elements; other types would need their own layout.
    if (buffers.some((b) => typeOf(b) !== 'float32')) throw new TwinrtError('webgpu: packed operands are float32 only', 'NOT_IMPLEMENTED');
    const offsets = [];
    let total = 0;
    for (const n of sizes) {
      offsets.push(total);
      total += n;
    }
    const out = this.buffer(total * 4);
    keep.add(out);
    const enc = this.device.createCommandEncoder();
    buffers.forEach((b, k) => { if (sizes[k]) enc.copyBufferToBuffer(b, 0, out, offsets[k] * 4, sizes[k] * 4); });
    this.device.queue.submit([enc.finish()]);
    return { buffer: out, offsets };
  }

  // A new buffer holding the first `bytes` of `buf` (of its element type).
  copy(buf, bytes) {
    const out = tagType(this.buffer(bytes), typeOf(buf));
    const enc = this.device.createCommandEncoder();
    enc.copyBufferToBuffer(buf, 0, out, 0, out.size);
    this.device.queue.submit([enc.finish()]);
    return out;
  }

  // Copies `bytes` of `buf` back to the CPU.
  async download(buf, bytes) {
    if (this.lost) throw new TwinrtError(`webgpu: the device was lost: ${this.lost}`, 'UNAVAILABLE');
    const size = Math.max(4, Math.ceil(bytes / 4) * 4);
    const staging = this.device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const enc = this.device.createCommandEncoder();
    enc.copyBufferToBuffer(buf, 0, staging, 0, size);
    this.device.queue.submit([enc.finish()]);
    try {
      await staging.mapAsync(GPUMapMode.READ);
      return new Uint8Array(staging.getMappedRange(0, size)).slice(0, bytes);
    } finally {
      staging.destroy();
    }
  }

  pipeline(code) {
    let p = this.pipelines.get(code);
    if (!p) {
      const module = this.device.createShaderModule({ code });
      p = this.device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
      this.pipelines.set(code, p);
    }
    return p;
  }

  // A new buffer of `elements` of `type`.
  output(elements, type = 'float32') {
    return tagType(this.buffer(elements * GPU_TYPES[type].bytes), type);
  }

  // Runs `body` (WGSL statements that see `i`, the invocation's index, and write `out`) for
  // i in [0, count); it may call math.js's functions. inputs: GPUBuffers bound read-only as in0, in1, ...; the output has
  // `outElements` of `outType`: by default float32, or float16 when an input is (f16.js: the
  // body still computes in f32). Returns the output buffer.
  compute(body, inputs, outElements, count = outElements, outType = null) {
    const out = this.output(outElements, outType || (inputs.some((b) => typeOf(b) === 'float16') ? 'float16' : 'float32'));
    this.dispatch(body, inputs, out, count);
    return out;
  }

  // compute() into an existing buffer `out`: for an output that several dispatches fill,
  // each writing its own elements.
  dispatch(body, inputs, out, count) {
    if (count === 0) return;
    const f16Inputs = inputs.map((b, k) => (typeOf(b) === 'float16' ? k : -1)).filter((k) => k >= 0);
    const f16Out = typeOf(out) === 'float16';
    const groups = Math.ceil(count / WORKGROUP);
    const gx = Math.min(groups, MAX_GROUPS_X), gy = Math.ceil(groups / gx);
    const type = (b) => GPU_TYPES[typeOf(b)].wgsl;
    const decls = inputs.map((b, k) => `@group(0) @binding(${k}) var<storage, read> in${k} : array<${type(b)}>;`);
    const f16 = f16Inputs.length > 0 || f16Out;
    if (f16) body = adaptBody(body, f16Inputs, f16Out);
    const code = `${f16 ? 'enable f16;\n' : ''}${helpersFor(body)}${decls.join('\n')}
@group(0) @binding(${inputs.length}) var<storage, read_write> out : array<${type(out)}>;
@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let i = gid.x + gid.y * ${gx * WORKGROUP}u;
  if (i >= ${count}u) { return; }
${body}
}`;
    const pipeline = this.pipeline(code);
    const entries = [...inputs, out].map((buffer, binding) => ({ binding, resource: { buffer } }));
    const bindGroup = this.device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries });
    const enc = this.device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(gx, gy);
    pass.end();
    this.device.queue.submit([enc.finish()]);
  }
}
