// Normalizations. LayerNormalization: one invocation per row finds the mean, then the
// variance (two passes summed in index order, as the wasm kernel does), and writes the row.
// BatchNormalization (inference): one invocation per element, with the per-channel factor
// scale / sqrt(var + epsilon) computed on the CPU in double, as the wasm kernel does, then
// the clamp of a Relu / Clip folded into it.
import { clampLines } from './epilogue.js';
import { broadcastIndex, broadcastShape, coords, f32, numel } from './wgsl.js';

function rows(node, dims) {
  let axis = node.attrs.axis ?? -1;
  if (axis < 0) axis += dims.length;
  if (axis < 0 || axis >= dims.length) return null;
  return { axis, inner: numel(dims.slice(axis)), outer: numel(dims.slice(0, axis)) };
}

// The WGSL index of Scale or B (dims `p`) broadcast to the normalized shape `norm`, from
// k, the index within the row; null when it does not broadcast to exactly that shape (the
// wasm kernel refuses it).
function paramIndex(p, norm) {
  const joint = broadcastShape([p, norm]);
  if (!joint || joint.join() !== norm.join()) return null;
  return numel(p) === numel(norm) ? 'k' : broadcastIndex(p, norm, 'n');
}

const extraOutputs = (node, count) => node.outputs.slice(count).some(Boolean);

// Statements giving one row's `mean` and `inv` (1 / sqrt(var + epsilon)) from in0.
const rowStats = (inner, epsilon) => `  let base = i * ${inner}u;
  var sum = 0.0;
  for (var k = 0u; k < ${inner}u; k++) { sum = sum + in0[base + k]; }
  let mean = sum / f32(${inner});
  var sq = 0.0;
  for (var k = 0u; k < ${inner}u; k++) { let d = in0[base + k] - mean; sq = sq + d * d; }
  let inv = 1.0 / sqrt(sq / f32(${inner}) + ${f32(epsilon)});`;

const layerNorm = {
  check(node, ins) {
    const r = rows(node, ins[0].dims);
    if (!r) return 'axis out of range';
    if (!r.inner) return 'empty rows';  // the wasm kernel's statistics of no elements are 0
    if ((node.attrs.stash_type ?? 1) !== 1) return 'stash_type other than float';
    const norm = ins[0].dims.slice(r.axis);
    if (ins.slice(1).some((p) => p && paramIndex(p.dims, norm) === null)) return 'scale or bias does not broadcast to the normalized shape';
    return null;
  },
  // Y, then the optional Mean and InvStdDev: each its own dispatch of one invocation per
  // row, the statistics computed by the same statements, so all three agree.
  run(gpu, node, ins) {
    const dims = ins[0].dims, { axis, inner, outer } = rows(node, dims), n = numel(dims);
    const stats = rowStats(inner, node.attrs.epsilon ?? 1e-5);
    const inputs = [ins[0].buffer, ins[1].buffer, ...(ins[2] ? [ins[2].buffer] : [])];
    const norm = dims.slice(axis), [scale, bias] = [ins[1], ins[2]].map((p) => p && paramIndex(p.dims, norm));
    // Coordinates in the normalized shape, for a broadcast Scale or B.
    const at = scale !== 'k' || (bias && bias !== 'k') ? `${coords(norm, 'k', 'n')}\n    ` : '';
    const y = `${stats}
  for (var k = 0u; k < ${inner}u; k++) {
    ${at}out[base + k] = (in0[base + k] - mean) * inv * in1[${scale}]${bias ? ` + in2[${bias}]` : ''};
  }`;
    const outs = [{ dims, buffer: gpu.compute(y, inputs, n, n ? outer : 0) }];
    const statDims = dims.map((d, k) => (k < axis ? d : 1));
    for (const v of ['mean', 'inv'].slice(0, node.outputs.length - 1))
      outs.push({ dims: statDims, buffer: gpu.compute(`${stats}\n  out[i] = ${v};`, [ins[0].buffer], outer) });
    return outs;
  },
};

const batchNorm = {
  cpuInputs: [1, 2, 3, 4],
  check(node, ins) {
    if (node.attrs.training_mode || extraOutputs(node, 1)) return 'training mode';
    if ((node.attrs.spatial ?? 1) !== 1) return 'spatial = 0';
    const C = ins[0].dims[1];
    if (ins[0].dims.length < 2) return 'input of rank < 2';
    if (ins.slice(1).some((p) => !p || p.type !== 'float32' || numel(p.dims) !== C)) return 'parameters are not float32 of one value per channel';
    return null;
  },
  run(gpu, node, ins, ctx) {
    const dims = ins[0].dims, C = dims[1], inner = numel(dims.slice(2));
    const eps = Math.fround(node.attrs.epsilon ?? 1e-5);  // a float attribute, widened
    const [scale, bias, mean, variance] = ins.slice(1).map((p) => p.data);
    // factor, shift, centre per channel, back to back.
    const params = new Float32Array(3 * C);
    for (let c = 0; c < C; c++) {
      params[c] = scale[c] / Math.sqrt(variance[c] + eps);
      params[C + c] = bias[c];
      params[2 * C + c] = mean[c];
    }
    const buf = gpu.upload(params);
    ctx.keep.add(buf);
    const body = [`  let c = (i / ${inner}u) % ${C}u;`, `  var acc = (in0[i] - in1[${2 * C}u + c]) * in1[c] + in1[${C}u + c];`,
      ...clampLines(node), '  out[i] = acc;'].join('\n');
    return [{ dims, buffer: gpu.compute(body, [ins[0].buffer, buf], numel(dims)) }];
  },
};

export const kernels = { LayerNormalization: layerNorm, BatchNormalization: batchNorm };
