// Softmax: one invocation per row (the elements along the axis) finds the max, sums the
// exponentials in order and writes the row. Opset < 13 treats dims from `axis` on as one
// row (the 2-D coercion); 13 and later normalize along the one axis.
import { numel } from './wgsl.js';

function rows(node, dims, opset) {
  const rank = dims.length;
  let axis = node.attrs.axis ?? (opset >= 13 ? -1 : 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return null;
  const len = opset >= 13 ? dims[axis] : numel(dims.slice(axis));
  const inner = opset >= 13 ? numel(dims.slice(axis + 1)) : 1;
  return { len, inner, count: numel(dims) / (len * inner || 1) * inner };
}

const softmax = {
  check: (node, ins, ctx) => (rows(node, ins[0].dims, ctx.opset) ? null : 'axis out of range'),
  run(gpu, node, ins, ctx) {
    const { len, inner, count } = rows(node, ins[0].dims, ctx.opset);
    const body = `  let base = (i / ${inner}u) * ${len * inner}u + i % ${inner}u;
  var mx = in0[base];
  for (var k = 1u; k < ${len}u; k++) { mx = max(mx, in0[base + k * ${inner}u]); }
  var sum = 0.0;
  for (var k = 0u; k < ${len}u; k++) { sum = sum + exp(in0[base + k * ${inner}u] - mx); }
  for (var k = 0u; k < ${len}u; k++) { out[base + k * ${inner}u] = exp(in0[base + k * ${inner}u] - mx) / sum; }`;
    const n = numel(ins[0].dims);
    return [{ dims: ins[0].dims, buffer: gpu.compute(body, [ins[0].buffer], n, n ? count : 0) }];
  },
};

export const kernels = { Softmax: softmax };
