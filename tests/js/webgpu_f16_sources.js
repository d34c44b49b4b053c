// The WGSL that twinrt-web's kernels generate for float16 data (js/lib/webgpu/f16.js), taken
// from a recording device: no GPU needed. Used by webgpu_f16.test.js (Node: the text) and by
// the browser page (SwiftShader has no shader-f16: it compiles the f32 twin of each source).
import { Gpu } from '../../js/lib/webgpu/device.js';
import { kernels as elementwise } from '../../js/lib/webgpu/elementwise.js';
import { kernels as matmul } from '../../js/lib/webgpu/matmul.js';
import { kernels as conv } from '../../js/lib/webgpu/conv.js';
import { kernels as softmax } from '../../js/lib/webgpu/softmax.js';
import { kernels as layout } from '../../js/lib/webgpu/layout.js';
import { kernels as reduce } from '../../js/lib/webgpu/reduce.js';
import { kernels as select } from '../../js/lib/webgpu/select.js';
import { kernels as pool } from '../../js/lib/webgpu/pool.js';
import { kernels as cast } from '../../js/lib/webgpu/cast.js';

// A GPUDevice that records shader sources and does nothing else.
function recordingDevice(sources) {
  const pass = { setPipeline() {}, setBindGroup() {}, dispatchWorkgroups() {}, end() {} };
  return {
    lost: new Promise(() => {}),
    queue: { writeBuffer() {}, submit() {} },
    createBuffer: ({ size }) => ({ size, destroy() {} }),
    createShaderModule: ({ code }) => { sources.push(code); return {}; },
    createComputePipeline: () => ({ getBindGroupLayout: () => ({}) }),
    createBindGroup: () => ({}),
    createCommandEncoder: () => ({ beginComputePass: () => pass, copyBufferToBuffer() {}, finish: () => ({}) }),
  };
}

const CASES = [
  ['Add (broadcast)', elementwise.Add, [[2, 3], [3]]],
  ['Relu', elementwise.Relu, [[5]]],
  ['Erf', elementwise.Erf, [[5]]],
  ['MatMul', matmul.MatMul, [[2, 4], [4, 3]]],
  ['Conv', conv.Conv, [[1, 2, 5, 5], [4, 2, 3, 3], [4]], { pads: [1, 1, 1, 1] }],
  ['Softmax', softmax.Softmax, [[2, 6]], { axis: -1 }],
  ['Transpose', layout.Transpose, [[2, 3, 4]], { perm: [2, 0, 1] }],
  ['Concat', layout.Concat, [[2, 3], [2, 2]], { axis: 1 }],
  ['ReduceMean', reduce.ReduceMean, [[2, 3, 4]], { axes: [1] }],
  ['ReduceLogSumExp', reduce.ReduceLogSumExp, [[2, 3, 4]], { axes: [1] }],
  ['Gather', select.Gather, [[4, 3], { type: 'int64', dims: [2], data: [3, -1] }], { axis: 0 }],
  ['MaxPool', pool.MaxPool, [[1, 1, 4, 4]], { kernel_shape: [2, 2], strides: [2, 2] }],
  ['Cast to int64', cast.Cast, [[5]], { to: 7 }],
  ['Cast to float32', cast.Cast, [[5]], { to: 1 }],
];

// [{ name, code }]: each case run on float16 buffers through a recording device.
export function f16Sources() {
  if (!globalThis.GPUBufferUsage) globalThis.GPUBufferUsage = { STORAGE: 128, COPY_SRC: 4, COPY_DST: 8, MAP_READ: 1 };
  const out = [];
  for (const [name, kernel, inputs, attrs = {}] of CASES) {
    const sources = [];
    const gpu = new Gpu(recordingDevice(sources), 'recording', { f16: true });
    const node = { op: name, attrs, fused: {}, outputs: ['y'] };
    const ins = inputs.map((x) => (Array.isArray(x) ? { type: 'float16', dims: x, onGpu: true, buffer: gpu.upload(new Uint16Array(x.reduce((a, b) => a * b, 1)), 'float16') } : x));
    const ctx = { opset: 17, keep: new Set(), f16: true };
    const problem = kernel.check(node, ins, ctx);
    if (problem !== null) throw new Error(`${name}: ${problem}`);
    kernel.run(gpu, node, ins, ctx);
    out.push(...sources.map((code) => ({ name, code })));
  }
  return out;
}

// The f32 twin of an f16 source: the same statements on f32 storage (what an adapter without
// shader-f16 can compile, to check the rewritten source is well formed).
export const f32Twin = (code) => code.replace('enable f16;\n', '').replace(/\bf16\b/g, 'f32');
