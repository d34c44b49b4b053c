// ConvTranspose, 1-D and 2-D, direct: one invocation per output element gathers the input
// taps a forward convolution would have scattered onto it, summing input channels, then
// kernel rows, then kernel columns, and adds the bias last. Groups, strides, pads,
// dilations, output_padding, output_shape, auto_pad as the wasm kernel's geometry
// (src/ops/nn/conv_transpose.cc). 3-D falls back.
import { coords, numel } from './wgsl.js';

function geometry(node, ins) {
  const [x, w] = ins, a = node.attrs, rank = x.dims.length - 2;
  if (rank < 1 || rank > 2 || w.dims.length !== x.dims.length) return null;
  const group = a.group || 1, [N, C, ...spatial] = x.dims, kernel = w.dims.slice(2);
  if (w.dims[0] !== C || C % group) return null;
  if (a.kernel_shape && a.kernel_shape.join() !== kernel.join()) return null;
  const ones = new Array(rank).fill(1);
  const strides = a.strides || ones, dilations = a.dilations || ones;
  const autoPad = a.auto_pad || 'NOTSET', same = autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER';
  let requested = a.output_shape || [];
  if (requested.length === rank + 2) requested = requested.slice(2);
  // One value per spatial axis (two for pads), or none.
  const fits = (v, n = rank) => !v || !v.length || v.length === n;
  if (![a.strides, a.dilations, a.output_padding, requested].every((v) => fits(v)) || !fits(a.pads, 2 * rank)) return null;
  const pads = autoPad === 'NOTSET' && a.pads ? a.pads : new Array(2 * rank).fill(0);
  const out = [], padBegin = [];
  for (let d = 0; d < rank; d++) {
    const full = strides[d] * (spatial[d] - 1) + (a.output_padding?.[d] ?? 0) + (kernel[d] - 1) * dilations[d] + 1;
    if (requested.length || same) {
      out.push(requested.length ? requested[d] : spatial[d] * strides[d]);
      const total = full - out[d], half = Math.floor(total / 2);
      padBegin.push(autoPad === 'SAME_UPPER' ? half : total - half);
    } else {
      padBegin.push(pads[d]);
      out.push(full - pads[d] - pads[d + rank]);
    }
  }
  if (out.some((o) => !(o >= 0))) return null;
  const M = w.dims[1] * group;
  // 1-D runs as 2-D with a height of 1.
  const two = (v, fill) => (rank === 1 ? [fill, ...v] : v);
  return { N, C, M, group, spatial: two(spatial, 1), kernel: two(kernel, 1), strides: two(strides, 1),
    dilations: two(dilations, 1), padBegin: two(padBegin, 0), out: two(out, 1), outDims: [N, M, ...out] };
}

const convTranspose = {
  check(node, ins) {
    if (ins[0].dims.length !== 3 && ins[0].dims.length !== 4) return 'not 1-D or 2-D';
    const g = geometry(node, ins);
    if (!g) return 'attributes do not fit the shapes';
    if (ins[2] && numel(ins[2].dims) !== g.M) return 'bias size';
    if (Object.keys(node.fused || {}).length) return 'fused work';
    return null;
  },
  run(gpu, node, ins) {
    const g = geometry(node, ins);
    const [H, W] = g.spatial, [KH, KW] = g.kernel, [OH, OW] = g.out;
    const CG = g.C / g.group, MG = g.M / g.group;
    const inputs = [ins[0].buffer, ins[1].buffer, ...(ins[2] ? [ins[2].buffer] : [])];
    // The input row (column) a kernel row (column) reaches from this output, or skip.
    const tap = (v, o, k, d, n) => `let ${v}n = i32(${o}) + ${g.padBegin[d]} - i32(${k} * ${g.dilations[d]}u);
        if (${v}n < 0 || ${v}n % ${g.strides[d]} != 0 || ${v}n / ${g.strides[d]} >= ${n}) { continue; }
        let ${v} = u32(${v}n / ${g.strides[d]});`;
    const body = `${coords([g.N, g.M, OH, OW])}
  let n = c0; let m = c1; let oh = c2; let ow = c3;
  let grp = m / ${MG}u; let mg = m % ${MG}u;
  var acc = 0.0;
  for (var c = grp * ${CG}u; c < (grp + 1u) * ${CG}u; c++) {
    let xBase = (n * ${g.C}u + c) * ${H * W}u;
    let wBase = (c * ${MG}u + mg) * ${KH * KW}u;
    for (var kh = 0u; kh < ${KH}u; kh++) {
      ${tap('ih', 'oh', 'kh', 0, H)}
      for (var kw = 0u; kw < ${KW}u; kw++) {
        ${tap('iw', 'ow', 'kw', 1, W)}
        acc = acc + in0[xBase + ih * ${W}u + iw] * in1[wBase + kh * ${KW}u + kw];
      }
    }
  }
  out[i] = acc${ins[2] ? ' + in2[m]' : ''};`;
    return [{ dims: g.outDims, buffer: gpu.compute(body, inputs, numel(g.outDims)) }];
  },
};

export const kernels = { ConvTranspose: convTranspose };
