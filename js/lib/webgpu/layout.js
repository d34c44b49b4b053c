// Layout ops. Reshape, Flatten, Squeeze, Unsqueeze and Identity keep the buffer (a new
// shape over the same bytes);
// Transpose and Concat copy, one output element per invocation.
import { MAX_INPUTS, coords, numel, strides } from './wgsl.js';
import { typeOf } from './types.js';

function reshapeDims(node, ins) {
  const shape = Array.from(ins[1].data, Number);
  const from = ins[0].dims;
  const allowZero = node.attrs.allowzero;
  const out = shape.map((d, k) => (d === 0 && !allowZero ? from[k] : d));
  const known = out.filter((d) => d !== -1);
  if (out.length - known.length > 1 || out.some((d) => d === undefined || d < -1)) return null;
  const rest = numel(known);
  if (known.length < out.length) {
    if (!rest || numel(from) % rest) return null;
    out[out.indexOf(-1)] = numel(from) / rest;
  }
  return numel(out) === numel(from) ? out : null;
}

// The output shares the input's buffer: the executor frees buffers only after the run.
const alias = (dimsOf) => ({
  check: (node, ins, ctx) => (dimsOf(node, ins, ctx) ? null : 'shape does not fit'),
  run: (gpu, node, ins, ctx) => [{ dims: dimsOf(node, ins, ctx), buffer: ins[0].buffer }],
});

function flattenDims(node, ins) {
  const dims = ins[0].dims;
  let axis = node.attrs.axis ?? 1;
  if (axis < 0) axis += dims.length;
  if (axis < 0 || axis > dims.length) return null;
  return [numel(dims.slice(0, axis)), numel(dims.slice(axis))];
}

// Squeeze/Unsqueeze axes: input 1 from opset 13, the attribute before.
function axesOf(node, ins, ctx) {
  if (ctx.opset < 13) return node.attrs.axes || null;
  return ins[1] ? Array.from(ins[1].data, Number) : null;
}

const normAxes = (axes, rank) => {
  const out = axes.map((a) => (a < 0 ? a + rank : a));
  return out.every((a) => a >= 0 && a < rank) && new Set(out).size === out.length ? out : null;
};

// Without axes, every dimension of 1 goes.
function squeezeDims(node, ins, ctx) {
  const dims = ins[0].dims, given = axesOf(node, ins, ctx);
  const axes = given ? normAxes(given, dims.length) : dims.map((d, k) => k).filter((k) => dims[k] === 1);
  if (!axes || axes.some((a) => dims[a] !== 1)) return null;
  return dims.filter((_, k) => !axes.includes(k));
}

function unsqueezeDims(node, ins, ctx) {
  const dims = ins[0].dims, given = axesOf(node, ins, ctx);
  const rank = dims.length + (given ? given.length : 0);
  const axes = given && normAxes(given, rank);
  if (!axes) return null;
  const rest = [...dims];
  return Array.from({ length: rank }, (_, k) => (axes.includes(k) ? 1 : rest.shift()));
}

const transpose = {
  check: (node, ins) => {
    const perm = node.attrs.perm, rank = ins[0].dims.length;
    const valid = !perm || (perm.length === rank && new Set(perm).size === rank && perm.every((p) => p >= 0 && p < rank));
    return valid ? null : 'perm is not a permutation of the axes';
  },
  run(gpu, node, ins) {
    const dims = ins[0].dims;
    const perm = node.attrs.perm || dims.map((_, k) => dims.length - 1 - k);
    const out = perm.map((p) => dims[p]);
    const s = strides(dims);
    const index = perm.map((p, k) => `c${k} * ${s[p]}u`).join(' + ') || '0u';
    const body = `${coords(out)}\n  out[i] = in0[${index}];`;
    return [{ dims: out, buffer: gpu.compute(body, [ins[0].buffer], numel(out)) }];
  },
};

function concatAxis(node, ins) {
  if (ins.some((x) => !x)) return null;
  const rank = ins[0].dims.length;
  const axis = node.attrs.axis < 0 ? node.attrs.axis + rank : node.attrs.axis;
  if (!(axis >= 0 && axis < rank)) return null;
  const same = ins.every((x) => x.dims.length === rank && x.dims.every((d, k) => k === axis || d === ins[0].dims[k]));
  return same ? axis : null;
}

// Up to MAX_INPUTS inputs per dispatch, each dispatch writing its inputs' range of the
// axis into the one output; an input with no elements binds nothing.
const concat = {
  check: (node, ins) => (concatAxis(node, ins) === null ? 'shapes do not concatenate' : null),
  run(gpu, node, ins) {
    const axis = concatAxis(node, ins);
    const out = [...ins[0].dims];
    out[axis] = ins.reduce((n, x) => n + x.dims[axis], 0);
    const before = numel(out.slice(0, axis)), after = numel(out.slice(axis + 1));
    const parts = [];
    let start = 0;
    for (const x of ins) {
      if (x.dims[axis]) parts.push({ x, start, len: x.dims[axis] });
      start += x.dims[axis];
    }
    const buffer = gpu.output(numel(out), typeOf(ins[0].buffer));
    for (let g = 0; g < parts.length; g += MAX_INPUTS) {
      const group = parts.slice(g, g + MAX_INPUTS);
      const first = group[0].start, len = group.reduce((n, p) => n + p.len, 0);
      const branches = group.map((p, k) => `  if (a < ${p.start + p.len}u) { out[at] = in${k}[(o * ${p.len}u + a - ${p.start}u) * ${after}u + r]; return; }`);
      const body = `  let r = i % ${after}u; let a = ${first}u + (i / ${after}u) % ${len}u; let o = i / ${after * len}u;
  let at = (o * ${out[axis]}u + a) * ${after}u + r;
${branches.join('\n')}`;
      gpu.dispatch(body, group.map((p) => p.x.buffer), buffer, before * len * after);
    }
    return [{ dims: out, buffer }];
  },
};

export const kernels = {
  Reshape: { cpuInputs: [1], ...alias(reshapeDims) },
  Flatten: alias(flattenDims),
  Squeeze: { cpuInputs: [1], ...alias(squeezeDims) },
  Unsqueeze: { cpuInputs: [1], ...alias(unsqueezeDims) },
  Identity: alias((node, ins) => ins[0].dims),
  Transpose: transpose,
  Concat: concat,
};
