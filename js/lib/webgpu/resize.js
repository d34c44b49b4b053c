// Resize, nearest and linear: the sample positions and weights of each axis are computed on
// the CPU in double as the wasm kernel computes them (src/ops/tensor/resize_sampling.cc) and
// go up as one table; one invocation per output element reads its samples. Linear sums
// nest as the wasm kernel's separable passes do: the last axis innermost, each sum in tap order.
// Cubic and tf_crop_and_resize fall back.
import { coords, numel, strides } from './wgsl.js';

const COORDINATES = {
  half_pixel: (x, s) => (x + 0.5) / s - 0.5,
  pytorch_half_pixel: (x, s, a) => (a.out > 1 ? (x + 0.5) / s - 0.5 : 0),
  align_corners: (x, s, a) => (s * a.in === 1 ? 0 : (x * (a.in - 1)) / (s * a.in - 1)),
  asymmetric: (x, s) => x / s,
  tf_half_pixel_for_nn: (x, s) => (x + 0.5) / s,
};
const NEAREST = {
  round_prefer_floor: (lo, frac) => (frac <= 0.5 ? lo : lo + 1),
  round_prefer_ceil: (lo, frac) => (frac < 0.5 ? lo : lo + 1),
  floor: (lo) => lo,
  ceil: (lo) => lo + 1,
  simple: (lo, frac, down) => (down ? lo + 1 : lo),  // opset 10
};

function config(node, opset) {
  const mode = node.attrs.mode || 'nearest';
  if (opset < 11) return { mode, coordinates: 'asymmetric', nearest: 'simple' };
  return { mode, coordinates: node.attrs.coordinate_transformation_mode || 'half_pixel',
    nearest: node.attrs.nearest_mode || 'round_prefer_floor', exclude: !!node.attrs.exclude_outside };
}

// Per axis { in, out, scale } from scales or sizes, or null.
function planAxes(ins, opset) {
  const dims = ins[0].dims;
  const given = (k) => (ins[k] && numel(ins[k].dims) ? Array.from(ins[k].data, Number) : null);
  const [scales, sizes] = opset < 11 ? [given(1), null] : [given(2), given(3)];
  if (!scales === !sizes || (scales || sizes).length !== dims.length) return null;
  const axes = dims.map((n, d) => (sizes ? { in: n, out: sizes[d], scale: n > 0 ? sizes[d] / n : 1 }
    : { in: n, out: Math.floor(n * scales[d]), scale: scales[d] }));
  return axes.every((a) => a.scale > 0 && Number.isFinite(a.scale) && a.in > 0) ? axes : null;
}

const bounded = (x, n) => (x === x ? Math.min(Math.max(x, -4), n + 4) : 0);

// [index, ...] (nearest) or [i0, i1, w0, w1, ...] (linear) per output coordinate, and
// whether the axis maps each output to the same input with weight 1.
function axisTable(c, a) {
  const table = [];
  let identity = a.in === a.out;
  const clampIndex = (i) => Math.min(Math.max(i, 0), a.in - 1);
  for (let j = 0; j < a.out; j++) {
    const x = COORDINATES[c.coordinates](j, a.scale, a);
    const lo = Math.floor(bounded(x, a.in)), frac = bounded(x, a.in) - lo;
    if (c.mode === 'nearest') {
      const idx = clampIndex(frac === 0 ? lo : NEAREST[c.nearest](lo, frac, a.scale < 1));
      table.push(idx);
      identity &&= idx === j;
      continue;
    }
    let w = [1 - frac, frac];
    if (c.exclude) {
      w = w.map((v, k) => (lo + k < 0 || lo + k >= a.in ? 0 : v));
      const sum = w[0] + w[1];
      if (sum !== 0) w = w.map((v) => v / sum);
    }
    const idx = [clampIndex(lo), clampIndex(lo + 1)];
    table.push(...idx, ...w);
    identity &&= w.every((v, k) => v === 0 || (idx[k] === j && v === 1));
  }
  return { table, identity };
}

const resize = {
  cpuInputs: [1, 2, 3],
  check(node, ins, ctx) {
    const c = config(node, ctx.opset);
    if (c.mode !== 'nearest' && c.mode !== 'linear') return `mode ${c.mode}`;
    if (!COORDINATES[c.coordinates]) return `coordinate_transformation_mode ${c.coordinates}`;
    if (!NEAREST[c.nearest]) return `nearest_mode ${c.nearest}`;
    if (!planAxes(ins, ctx.opset)) return 'scales/sizes do not fit';
    return null;
  },
  run(gpu, node, ins, ctx) {
    const c = config(node, ctx.opset), axes = planAxes(ins, ctx.opset), s = strides(ins[0].dims);
    const outDims = axes.map((a) => a.out);
    const width = c.mode === 'nearest' ? 1 : 4;
    const all = [], offsets = [];
    const moving = axes.map((a, d) => {
      const { table, identity } = axisTable(c, a);
      if (identity) return false;
      offsets[d] = all.length;
      all.push(...table);
      return true;
    }).map((m, d) => (m ? d : -1)).filter((d) => d >= 0);
    const fixed = axes.map((_, d) => d).filter((d) => !moving.includes(d));
    const base = fixed.map((d) => `c${d} * ${s[d]}u`).join(' + ') || '0u';
    const tap = (d) => `  let t${d} = ${offsets[d]}u + c${d} * ${width}u;`;
    let value;
    if (c.mode === 'nearest') {
      value = `in0[${[base, ...moving.map((d) => `u32(in1[t${d}]) * ${s[d]}u`)].join(' + ')}]`;
    } else {
      // Sum over the taps of moving[level], the later axes nested inside.
      const sum = (level, terms) => {
        if (level === moving.length) return `in0[${[base, ...terms].join(' + ')}]`;
        const d = moving[level];
        const part = (k) => `in1[t${d} + ${2 + k}u] * ${sum(level + 1, [...terms, `u32(in1[t${d} + ${k}u]) * ${s[d]}u`])}`;
        return `(${part(0)} + ${part(1)})`;
      };
      value = sum(0, []);
    }
    const body = `${coords(outDims)}\n${moving.map(tap).join('\n')}\n  out[i] = ${value};`;
    const inputs = [ins[0].buffer];
    if (moving.length) {  // a shader that reads no table must not bind one
      inputs.push(gpu.upload(new Float32Array(all)));
      ctx.keep.add(inputs[1]);
    }
    return [{ dims: outDims, buffer: gpu.compute(body, inputs, numel(outDims)) }];
  },
};

export const kernels = { Resize: resize };
