// WebGPU test page: window.webgpuCompare runs one model with executionProviders
// ['webgpu', 'wasm'] (twice) and with 'wasm' alone in exact mode, and reports how the
// outputs compare.
import { InferenceSession, Tensor, env } from '../../js/lib/browser.js';
import { makeModel } from '../js/make-model.js';
import { TYPED_ARRAYS } from '../../js/lib/tensor.js';

const toBase64 = (u8) => { let s = ''; for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000)); return btoa(s); };
const fromBase64 = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

// Deterministic inputs in [-2, 2) (a small linear congruential generator).
function inputData(n, seed) {
  const data = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = (s / 2 ** 32) * 4 - 2;
  }
  return data;
}

// Max abs and relative (to max(1, |b|)) differences; equal infinities and NaN against NaN
// count as equal.
function compare(a, b) {
  let maxAbs = 0, maxRel = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i] || (Number.isNaN(a[i]) && Number.isNaN(b[i]))) continue;
    const d = Math.abs(a[i] - b[i]);
    maxAbs = Math.max(maxAbs, Number.isNaN(d) ? Infinity : d);
    maxRel = Math.max(maxRel, Number.isNaN(d) ? Infinity : d / Math.max(1, Math.abs(b[i])));
  }
  return { maxAbs, maxRel };
}

const sameBits = (a, b) => a.length === b.length && new Uint32Array(a.buffer, a.byteOffset, a.length).every((v, i) => v === new Uint32Array(b.buffer, b.byteOffset, b.length)[i]);

async function runOnce(model, feeds) {
  const session = await InferenceSession.create(model, { executionProviders: ['webgpu', 'wasm'] });
  try {
    return await session.run(feeds);
  } finally {
    await session.release();
  }
}

// spec: { model (makeModel description) | url | base64 (model bytes), inputs?: {name: dims},
//         concurrent?, secondSession? }
window.webgpuCompare = async (spec) => {
  const model = spec.url || (spec.base64 ? fromBase64(spec.base64) : makeModel(spec.model));
  const gpu = await InferenceSession.create(model, { executionProviders: ['webgpu', 'wasm'] });
  // The comparison: twinrt's exact mode (one fixed order per element, no FMA, bit-identical
  // on every CPU and in WebAssembly).
  const cpu = await InferenceSession.create(model, { executionProviders: ['wasm'], mode: 'exact' });
  try {
    const feeds = {};
    gpu.inputMetadata.forEach((m, k) => {
      const dims = (spec.inputs && spec.inputs[m.name]) || m.shape.map((d) => (typeof d === 'number' ? d : 1));
      feeds[m.name] = new Tensor('float32', inputData(dims.reduce((a, b) => a * b, 1), 7 + k), dims);
    });
    const first = await gpu.run(feeds);
    const second = await gpu.run(feeds);
    // spec.concurrent: two more runs started together must give the same bits too.
    const together = spec.concurrent ? await Promise.all([gpu.run(feeds), gpu.run(feeds)]) : [];
    // spec.secondSession: a run of a second session of the same model (its own weight
    // buffers, the cached pipelines) must give the same bits as well.
    const other = spec.secondSession ? await runOnce(model, feeds) : null;
    const expected = await cpu.run(feeds);
    const outputs = {};
    for (const name of gpu.outputNames) {
      const [g, g2, c] = [first[name], second[name], expected[name]];
      const repeatable = [g2, ...together.map((o) => o[name])].every((x) => sameBits(g.data, x.data));
      const sameAcrossSessions = other ? sameBits(g.data, other[name].data) : null;
      outputs[name] = { dims: [...g.dims], expectedDims: [...c.dims], ...compare(g.data, c.data), repeatable, sameAcrossSessions };
    }
    return { outputs, placement: gpu.placement, runtime: gpu.runtime };
  } finally {
    await gpu.release();
    await cpu.release();
  }
};

// Bad input to a WebGPU session: the messages of the rejected runs.
window.webgpuBadInput = async (spec) => {
  const session = await InferenceSession.create(makeModel(spec.model), { executionProviders: ['webgpu'] });
  const messages = [];
  for (const feeds of [{}, { x: new Tensor('int32', new Int32Array(4), [4]) }, { x: new Tensor('float32', new Float32Array(3), [3]) }]) {
    try { await session.run(feeds); messages.push('no error'); } catch (e) { messages.push(e.message); }
  }
  await session.release();
  return messages;
};

// How many GPU buffers a run of a WebGPU session holds at once (createBuffer minus
// destroy on its device, readback buffers included): { peak, left, placement }.
window.webgpuLiveBuffers = async (spec) => {
  const session = await InferenceSession.create(makeModel(spec.model), { executionProviders: ['webgpu'] });
  const device = await env.webgpu.device;
  const create = device.createBuffer;
  let live = 0, peak = 0;
  device.createBuffer = function (descriptor) {
    const buffer = create.call(this, descriptor);
    peak = Math.max(peak, ++live);
    const destroy = buffer.destroy;
    let destroyed = false;
    buffer.destroy = function () {
      if (!destroyed) live--;
      destroyed = true;
      return destroy.call(this);
    };
    return buffer;
  };
  try {
    const feeds = {};
    session.inputMetadata.forEach((m, k) => { feeds[m.name] = new Tensor('float32', inputData(m.shape.reduce((a, b) => a * b, 1), 7 + k), m.shape); });
    await session.run(feeds);
    return { peak, left: live, placement: session.placement.map((p) => `${p.op}:${p.ep}`) };
  } finally {
    device.createBuffer = create;
    await session.release();
  }
};

window.webgpuAdapter = async () => {
  if (!navigator.gpu) return null;
  const a = await navigator.gpu.requestAdapter();
  return a ? `${a.info.vendor} ${a.info.architecture}` : null;
};
document.getElementById('status').textContent = 'ready';

// One ONNX test data set on a WebGPU session. inputs: [{ type, dims, base64 }] in the
// model's input order; returns its outputs the same way and the placement.
window.webgpuRunRaw = async ({ model, inputs }) => {
  const session = await InferenceSession.create(fromBase64(model), { executionProviders: ['webgpu', 'wasm'] });
  try {
    const feeds = {};
    inputs.forEach((x, k) => {
      const bytes = fromBase64(x.base64);
      feeds[session.inputNames[k]] = new Tensor(x.type, new TYPED_ARRAYS[x.type](bytes.buffer, 0, bytes.byteLength / TYPED_ARRAYS[x.type].BYTES_PER_ELEMENT), x.dims);
    });
    const out = await session.run(feeds);
    const outputs = session.outputNames.map((n) => out[n]).map((t) => t && { type: t.type, dims: [...t.dims], base64: toBase64(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength)) });
    return { outputs, placement: session.placement };
  } finally {
    await session.release();
  }
};

// Device data (docs/webgpu.md): model A's output kept on the GPU ('gpu-buffer') feeds model B;
// a buffer of the caller's own on env.webgpu.device feeds A. Each result is compared, bit
// for bit, with the same models run on CPU tensors; bad GPU feeds give the errors returned.
window.webgpuDeviceData = async ({ first, second, dims }) => {
  const [a, b] = [makeModel(first), makeModel(second)];
  const onGpu = { executionProviders: ['webgpu'], preferredOutputLocation: 'gpu-buffer' };
  const sessions = [];
  const open = async (model, options) => { const s = await InferenceSession.create(model, options); sessions.push(s); return s; };
  try {
    const [ga, gb, ca, cb] = [await open(a, onGpu), await open(b, onGpu), await open(a, { executionProviders: ['webgpu'] }), await open(b, { executionProviders: ['webgpu'] })];
    const x = new Tensor('float32', inputData(dims.reduce((p, q) => p * q, 1), 3), dims);
    // The caller's buffer: written here, handed over as a GPU tensor.
    const device = await env.webgpu.device;
    const own = device.createBuffer({ size: x.data.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(own, 0, x.data);
    const z = (await ga.run({ x: Tensor.fromGpuBuffer(own, { dataType: 'float32', dims }) })).z;
    let dataThrows = false;
    try { z.data; } catch { dataThrows = true; }
    const y = (await gb.run({ z })).y;
    const [zData, yData] = [await z.getData(), await y.getData()];
    // The same on CPU tensors.
    const zc = (await ca.run({ x })).z, yc = (await cb.run({ z: zc })).y;
    const result = { locations: [z.location, y.location], dataThrows, dims: [[...z.dims], [...y.dims]],
      sameBits: [sameBits(zData, zc.data), sameBits(yData, yc.data)] };
    z.dispose();
    result.disposed = z.location;
    const wasm = await open(b, { executionProviders: ['wasm'] });
    const errors = [];
    for (const attempt of [
      () => gb.run({ z }),
      () => Tensor.fromGpuBuffer(own, { dataType: 'float32', dims: [dims[0] + 1, ...dims.slice(1)] }),
      () => Tensor.fromGpuBuffer(own, { dataType: 'int32', dims }),
      () => wasm.run({ z: y }),
    ]) {
      try { await attempt(); errors.push('no error'); } catch (e) { errors.push(e.message); }
    }
    result.errors = errors;
    y.dispose();
    own.destroy();
    return result;
  } finally {
    for (const s of sessions) await s.release();
  }
};

// float16 (webgpu_f16.test.js): whether the adapter has shader-f16, and the WGSL errors of
// the f32 twins of the kernels' f16 sources (none when the f16 rewrite is well formed).
window.webgpuF16Twins = async () => {
  const { f16Sources, f32Twin } = await import('../js/webgpu_f16_sources.js');
  const adapter = await navigator.gpu.requestAdapter();
  const device = await env.webgpu.device;
  const errors = [];
  const sources = f16Sources();
  for (const { name, code } of sources) {
    const info = await device.createShaderModule({ code: f32Twin(code) }).getCompilationInfo();
    for (const m of info.messages) if (m.type === 'error') errors.push(`${name}: ${m.message}`);
  }
  return { shaderF16: adapter.features.has('shader-f16'), compiled: sources.length, errors };
};
