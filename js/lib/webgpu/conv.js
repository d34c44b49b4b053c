// Conv, direct: one invocation per output element sums channels, then kernel rows, then
// kernel columns, in that order. Groups (and so depthwise), strides, pads, dilations.
import { kernels as elementwise } from './elementwise.js';
import { kernels as norm } from './norm.js';
import { epilogue, epilogueProblem } from './epilogue.js';
import { broadcastShape, coords, numel } from './wgsl.js';
import { windowGeometry, windowTaps } from './window.js';

function geometry(node, ins) {
  const [x, w] = ins;
  const group = node.attrs.group || 1;
  if (x.dims.length !== w.dims.length) return null;
  const g = windowGeometry(node.attrs, x.dims, node.attrs.kernel_shape || w.dims.slice(2));
  const [C, M] = [x.dims[1], w.dims[0]];
  if (!g || C % group || M % group || w.dims[1] !== C / group) return null;
  if (node.attrs.kernel_shape && node.attrs.kernel_shape.join() !== w.dims.slice(2).join()) return null;
  g.outDims[1] = M;
  return { ...g, C, M, group };
}

const conv = {
  check(node, ins) {
    const g = geometry(node, ins);
    if (!g) return 'attributes do not fit the shapes';
    if (ins[2] && numel(ins[2].dims) !== g.M) return 'bias size';
    return epilogueProblem(node, ins, g.outDims);
  },
  run(gpu, node, ins, ctx) {
    const g = geometry(node, ins);
    const [H, W] = g.spatial, [KH, KW] = g.kernel, [OH, OW] = g.out;
    const CG = g.C / g.group, MG = g.M / g.group;
    const inputs = [ins[0].buffer, ins[1].buffer];
    let bias = '';
    if (ins[2]) {
      inputs.push(ins[2].buffer);
      bias = `  acc = acc + in${inputs.length - 1}[m];`;
    }
    const finish = epilogue(gpu, node, ins, g.outDims, inputs, ctx);
    const body = `${coords([g.outDims[0], g.M, OH, OW])}
  let n = c0; let m = c1; let oh = c2; let ow = c3;
  let c0g = (m / ${MG}u) * ${CG}u;
  var acc = 0.0;
  for (var c = 0u; c < ${CG}u; c++) {
    let xBase = (n * ${g.C}u + c0g + c) * ${H * W}u;
    let wBase = (m * ${CG}u + c) * ${KH * KW}u;
${windowTaps(g, `acc = acc + in0[xBase + u32(ih) * ${W}u + u32(iw)] * in1[wBase + kh * ${KW}u + kw];`, '    ')}
  }
${bias}
${finish}
  out[i] = acc;`;
    return [{ dims: g.outDims, buffer: gpu.compute(body, inputs, numel(g.outDims)) }];
  },
};

// ChannelScaledConv (src/passes/fuse_channel_scale.cc): the Conv of its X times its last
// input, as the Mul and the Conv that the pass joined, one after the other.
const channelScaledConv = {
  check(node, ins) {
    const dims = broadcastShape([ins[0].dims, ins[ins.length - 1].dims]);
    if (!dims) return 'shapes do not broadcast';
    return conv.check(node, [{ ...ins[0], dims }, ...ins.slice(1, -1)]);
  },
  run(gpu, node, ins, ctx) {
    const [product] = elementwise.Mul.run(gpu, node, [ins[0], ins[ins.length - 1]]);
    ctx.keep.add(product.buffer);
    return conv.run(gpu, node, [{ ...ins[0], ...product }, ...ins.slice(1, -1)], ctx);
  },
};

// NormalizedConv (src/passes/fuse_normalized_input.cc): the BatchNormalization of its X (its
// last four inputs, epsilon, and input_min / input_max as the normalization's clamp), then the
// Conv, one after the other.
const STATS = 4;
const normalization = (node) => {
  const { epsilon, input_min: min = null, input_max: max = null } = node.attrs;
  return { ...node, attrs: { epsilon }, fused: { clamp: min === null && max === null ? null : [min, max] } };
};
const normalizedConv = {
  cpuInputs: (count) => Array.from({ length: STATS }, (_, k) => count - STATS + k),
  check(node, ins) {
    return norm.BatchNormalization.check(normalization(node), [ins[0], ...ins.slice(-STATS)]) ||
      conv.check(node, ins.slice(0, -STATS));
  },
  run(gpu, node, ins, ctx) {
    const [normalized] = norm.BatchNormalization.run(gpu, normalization(node), [ins[0], ...ins.slice(-STATS)], ctx);
    ctx.keep.add(normalized.buffer);
    return conv.run(gpu, node, [{ ...ins[0], ...normalized }, ...ins.slice(1, -STATS)], ctx);
  },
};

export const kernels = { Conv: conv, 'ai.twinrt:ChannelScaledConv': channelScaledConv, 'ai.twinrt:NormalizedConv': normalizedConv };
