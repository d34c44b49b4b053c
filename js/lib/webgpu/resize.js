// Resize, nearest, linear and cubic, every coordinate transformation: the sample positions
// and weights of each axis are computed on the CPU in double as the wasm kernel computes
// them (src/ops/tensor/resize_sampling.cc) and go up as one table; one invocation per
// output element reads its samples. Interpolating sums nest as the wasm kernel's separable
// passes do: the last axis innermost, each sum in tap order.
import { attrNumber, coords, numel, strides } from './wgsl.js';

// The input coordinate of output coordinate x; a: the axis ({ in, out, scale, roi }).
// "resized" is the ONNX reference's scale * input length (not floored), as the wasm kernel's.
const COORDINATES = {
  half_pixel: (x, s) => (x + 0.5) / s - 0.5,
  pytorch_half_pixel: (x, s, a) => (a.out > 1 ? (x + 0.5) / s - 0.5 : 0),
  align_corners: (x, s, a) => (s * a.in === 1 ? 0 : (x * (a.in - 1)) / (s * a.in - 1)),
  asymmetric: (x, s) => x / s,
  tf_half_pixel_for_nn: (x, s) => (x + 0.5) / s,
  tf_crop_and_resize: (x, s, a) => {
    const [start, end] = a.roi, resized = s * a.in;
    if (resized === 1) return 0.5 * (start + end) * (a.in - 1);
    return start * (a.in - 1) + (x * (end - start) * (a.in - 1)) / (resized - 1);
  },
};
const NEAREST = {
  round_prefer_floor: (lo, frac) => (frac <= 0.5 ? lo : lo + 1),
  round_prefer_ceil: (lo, frac) => (frac < 0.5 ? lo : lo + 1),
  floor: (lo) => lo,
  ceil: (lo) => lo + 1,
  simple: (lo, frac, down) => (down ? lo + 1 : lo),  // opset 10
};
const TAPS = { nearest: 1, linear: 2, cubic: 4 };

// Attributes are floats: their values as the wasm kernel reads them.
function config(node, opset) {
  const mode = node.attrs.mode || 'nearest';
  if (opset < 11) return { mode, coordinates: 'asymmetric', nearest: 'simple' };
  const float = (name, otherwise) => Math.fround(attrNumber(node.attrs[name] ?? otherwise));
  return { mode, coordinates: node.attrs.coordinate_transformation_mode || 'half_pixel',
    nearest: node.attrs.nearest_mode || 'round_prefer_floor', exclude: !!node.attrs.exclude_outside,
    cubicA: float('cubic_coeff_a', -0.75), extrapolation: float('extrapolation_value', 0) };
}

// Per axis { in, out, scale, roi } from scales or sizes (and the roi for
// tf_crop_and_resize), or a string saying why not.
function planAxes(c, ins, opset) {
  const dims = ins[0].dims;
  const given = (k) => (ins[k] && numel(ins[k].dims) ? Array.from(ins[k].data, Number) : null);
  const [scales, sizes] = opset < 11 ? [given(1), null] : [given(2), given(3)];
  if (!scales === !sizes || (scales || sizes).length !== dims.length) return 'scales/sizes do not fit';
  const crop = c.coordinates === 'tf_crop_and_resize';
  const roi = crop && given(1);
  if (roi && ins[1].type !== 'float32' && ins[1].type !== 'float64') return `roi is ${ins[1].type}`;
  if (roi && roi.length !== 2 * dims.length) return 'roi does not fit';
  const axes = dims.map((n, d) => {
    const a = { in: n, roi: roi ? [roi[d], roi[d + dims.length]] : [0, 1] };
    if (sizes) return { ...a, out: sizes[d], scale: n > 0 ? sizes[d] / n : 1 };
    return { ...a, out: Math.floor(n * scales[d] * (crop ? a.roi[1] - a.roi[0] : 1)), scale: scales[d] };
  });
  const valid = axes.every((a) => a.scale > 0 && Number.isFinite(a.scale) && a.in > 0 && a.out >= 0 && a.out < 1e12);
  return valid ? axes : 'scales/sizes do not fit';
}

const bounded = (x, n) => (x === x ? Math.min(Math.max(x, -4), n + 4) : 0);

function cubicWeights(r, a) {
  const s = 1 - r;
  return [((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
    ((a + 2) * r - (a + 3)) * r * r + 1,
    ((a + 2) * s - (a + 3)) * s * s + 1,
    ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a];
}

// One axis's samples per output coordinate: [index] (nearest) or [index × taps, weight ×
// taps] (interpolating), then with tf_crop_and_resize a 1 where the coordinate lies outside
// the input (the output is the extrapolation value there). identity: every output j is
// input j with weight 1.
function axisTable(c, a) {
  const taps = TAPS[c.mode], crop = c.coordinates === 'tf_crop_and_resize';
  const table = [];
  let identity = a.in === a.out, anyOutside = false;
  const clampIndex = (i) => Math.min(Math.max(i, 0), a.in - 1);
  for (let j = 0; j < a.out; j++) {
    const x = COORDINATES[c.coordinates](j, a.scale, a);
    const outside = crop && (x < 0 || x > a.in - 1);
    const lo = Math.floor(bounded(x, a.in)), frac = bounded(x, a.in) - lo;
    let idx, w;
    if (c.mode === 'nearest') {
      idx = [outside ? 0 : clampIndex(frac === 0 ? lo : NEAREST[c.nearest](lo, frac, a.scale < 1))];
      w = [1];
    } else {
      const first = c.mode === 'linear' ? lo : lo - 1;
      w = c.mode === 'linear' ? [1 - frac, frac] : cubicWeights(frac, c.cubicA);
      if (c.exclude) {
        w = w.map((v, k) => (first + k < 0 || first + k >= a.in ? 0 : v));
        const sum = w.reduce((p, v) => p + v, 0);
        if (sum !== 0) w = w.map((v) => v / sum);
      }
      if (outside) w = w.map((_, k) => (k === 0 ? 1 : 0));
      idx = w.map((_, k) => clampIndex(first + k));
    }
    table.push(...idx, ...(taps > 1 ? w : []), ...(crop ? [outside ? 1 : 0] : []));
    identity &&= !outside && w.every((v, k) => v === 0 || (idx[k] === j && v === 1));
    anyOutside ||= outside;
  }
  return { table, identity, anyOutside };
}

const resize = {
  cpuInputs: [1, 2, 3],
  check(node, ins, ctx) {
    const c = config(node, ctx.opset);
    if (!TAPS[c.mode]) return `mode ${c.mode}`;
    if (!COORDINATES[c.coordinates]) return `coordinate_transformation_mode ${c.coordinates}`;
    if (!NEAREST[c.nearest]) return `nearest_mode ${c.nearest}`;
    const axes = planAxes(c, ins, ctx.opset);
    return typeof axes === 'string' ? axes : null;
  },
  run(gpu, node, ins, ctx) {
    const c = config(node, ctx.opset), axes = planAxes(c, ins, ctx.opset), s = strides(ins[0].dims);
    const outDims = axes.map((a) => a.out);
    const taps = TAPS[c.mode], crop = c.coordinates === 'tf_crop_and_resize';
    const width = (taps > 1 ? 2 * taps : 1) + (crop ? 1 : 0);
    const all = [], offsets = [];
    let anyOutside = false;
    const moving = axes.map((a, d) => {
      const t = axisTable(c, a);
      if (t.identity) return false;
      offsets[d] = all.length;
      all.push(...t.table);
      anyOutside ||= t.anyOutside;
      return true;
    }).map((m, d) => (m ? d : -1)).filter((d) => d >= 0);
    const fixed = axes.map((_, d) => d).filter((d) => !moving.includes(d));
    const base = fixed.map((d) => `c${d} * ${s[d]}u`).join(' + ') || '0u';
    const tap = (d) => `  let t${d} = ${offsets[d]}u + c${d} * ${width}u;`;
    // Sum over the taps of moving[level], the later axes nested inside; nearest reads its one sample.
    const sum = (level, terms) => {
      if (level === moving.length) return `in0[${[base, ...terms].join(' + ')}]`;
      const d = moving[level];
      const at = (k) => [...terms, `u32(in1[t${d} + ${k}u]) * ${s[d]}u`];
      if (taps === 1) return sum(level + 1, at(0));
      const parts = Array.from({ length: taps }, (_, k) => `in1[t${d} + ${taps + k}u] * ${sum(level + 1, at(k))}`);
      return `(${parts.join(' + ')})`;
    };
    let value = sum(0, []);
    if (anyOutside) {
      const outside = moving.map((d) => `in1[t${d} + ${width - 1}u] != 0.0`).join(' || ');
      value = `select(${value}, in1[${all.length}u], ${outside})`;
      all.push(c.extrapolation);
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
