// Ops that pick input elements: Slice, Gather, GatherElements, GatherND, Split, Where. One invocation
// per output element copies one input element; starts, indices, split sizes and Where's
// condition are read on the CPU: baked into the WGSL, or (indices, the condition) sent up
// as a buffer of u32.
import { broadcastIndex, broadcastShape, coords, numel, strides } from './wgsl.js';

const list = (view) => (view ? Array.from(view.data, Number) : null);
const normAxis = (a, rank) => (a < 0 ? a + rank : a);
const validAxes = (axes, rank) => axes.every((a) => a >= 0 && a < rank) && new Set(axes).size === axes.length;

// Per axis { start, step, len } as ONNX clamps them, or null when the inputs do not fit.
function sliceRanges(node, ins, opset) {
  const dims = ins[0].dims, rank = dims.length;
  const [starts, ends, axesIn, stepsIn] = opset >= 10 ? [1, 2, 3, 4].map((k) => list(ins[k]))
    : [node.attrs.starts, node.attrs.ends, node.attrs.axes, null];
  if (!starts || !ends || starts.length !== ends.length) return null;
  const axes = (axesIn || starts.map((_, k) => k)).map((a) => normAxis(a, rank));
  const steps = stepsIn || starts.map(() => 1);
  if (axes.length !== starts.length || steps.length !== starts.length || !validAxes(axes, rank) || steps.includes(0)) return null;
  const ranges = dims.map((d) => ({ start: 0, step: 1, len: d }));
  axes.forEach((a, k) => {
    const d = dims[a], step = steps[k];
    const clamp = (v, lo, hi) => Math.min(Math.max(v < 0 ? v + d : v, lo), hi);
    const start = step > 0 ? clamp(starts[k], 0, d) : clamp(starts[k], 0, d - 1);
    const end = step > 0 ? clamp(ends[k], 0, d) : clamp(ends[k], -1, d - 1);
    ranges[a] = { start, step, len: Math.max(0, Math.ceil((end - start) / step)) };
  });
  return ranges;
}

const slice = {
  cpuInputs: [1, 2, 3, 4],
  check: (node, ins, ctx) => (sliceRanges(node, ins, ctx.opset) ? null : 'starts/ends/axes/steps do not fit'),
  run(gpu, node, ins, ctx) {
    const ranges = sliceRanges(node, ins, ctx.opset), s = strides(ins[0].dims);
    const outDims = ranges.map((r) => r.len);
    const index = ranges.map((r, k) => `(${r.start} + i32(c${k}) * ${r.step}) * ${s[k]}`).join(' + ') || '0';
    const body = `${coords(outDims)}\n  out[i] = in0[u32(${index})];`;
    return [{ dims: outDims, buffer: gpu.compute(body, [ins[0].buffer], numel(outDims)) }];
  },
};

// Gather: indices (negative ones counted from the end) checked against the axis here.
function gatherGeometry(node, ins) {
  const dims = ins[0].dims, axis = normAxis(node.attrs.axis ?? 0, dims.length);
  if (!(axis >= 0 && axis < dims.length)) return null;
  const D = dims[axis];
  const indices = list(ins[1]).map((v) => (v < 0 ? v + D : v));
  if (indices.some((v) => v < 0 || v >= D)) return null;
  const outDims = [...dims.slice(0, axis), ...ins[1].dims, ...dims.slice(axis + 1)];
  return { D, indices, outDims, inner: numel(dims.slice(axis + 1)) };
}

const gather = {
  cpuInputs: [1],
  check: (node, ins) => (gatherGeometry(node, ins) ? null : 'axis or an index out of range'),
  run(gpu, node, ins, ctx) {
    const { D, indices, outDims, inner } = gatherGeometry(node, ins);
    const idx = uploadU32(gpu, indices, ctx);
    const n = indices.length;
    const body = `  let r = i % ${inner}u; let j = (i / ${inner}u) % ${n}u; let o = i / ${inner * n}u;
  out[i] = in0[(o * ${D}u + bitcast<u32>(in1[j])) * ${inner}u + r];`;
    return [{ dims: outDims, buffer: gpu.compute(body, [ins[0].buffer, idx], numel(outDims)) }];
  },
};

// A u32 buffer of `values`, freed with the run.
function uploadU32(gpu, values, ctx) {
  const buffer = gpu.upload(Uint32Array.from(values));
  ctx.keep.add(buffer);
  return buffer;
}

// GatherElements: same rank, indices no larger than the data off the axis, every index in range.
function gatherElementsAxis(node, ins) {
  const dims = ins[0].dims, idims = ins[1].dims, axis = normAxis(node.attrs.axis ?? 0, dims.length);
  if (!(axis >= 0 && axis < dims.length) || idims.length !== dims.length) return null;
  if (idims.some((d, k) => k !== axis && d > dims[k])) return null;
  return list(ins[1]).every((v) => v >= -dims[axis] && v < dims[axis]) ? axis : null;
}

const gatherElements = {
  cpuInputs: [1],
  check: (node, ins) => (gatherElementsAxis(node, ins) === null ? 'axis, shapes or an index out of range' : null),
  run(gpu, node, ins, ctx) {
    const axis = gatherElementsAxis(node, ins), dims = ins[0].dims, D = dims[axis], s = strides(dims);
    const outDims = ins[1].dims;
    const idx = uploadU32(gpu, list(ins[1]).map((v) => (v < 0 ? v + D : v)), ctx);
    const index = outDims.map((_, k) => `${k === axis ? 'bitcast<u32>(in1[i])' : `c${k}`} * ${s[k]}u`).join(' + ') || '0u';
    const body = `${coords(outDims)}\n  out[i] = in0[${index}];`;
    return [{ dims: outDims, buffer: gpu.compute(body, [ins[0].buffer, idx], numel(outDims)) }];
  },
};

// GatherND: each index tuple (its batch's, negative ones counted from the end) becomes the
// flat offset of the slice it picks, computed here; the slices are `inner` elements long.
function gatherNdOffsets(node, ins) {
  const dims = ins[0].dims, idims = ins[1].dims, b = node.attrs.batch_dims ?? 0;
  const k = idims[idims.length - 1];
  if (!idims.length || b < 0 || b >= Math.min(dims.length, idims.length) || b + k > dims.length) return null;
  if (idims.slice(0, b).some((d, j) => d !== dims[j])) return null;
  const s = strides(dims), picked = dims.slice(b, b + k), values = list(ins[1]);
  const perBatch = numel(idims.slice(b, -1)), batchStride = b ? s[b - 1] : 0;
  const offsets = [], tuples = numel(idims.slice(0, -1));
  for (let t = 0; t < tuples; t++) {
    let off = Math.floor(t / perBatch) * batchStride;
    for (let j = 0; j < k; j++) {
      const v = values[t * k + j], d = picked[j];
      if (v < -d || v >= d) return null;
      off += (v < 0 ? v + d : v) * s[b + j];
    }
    offsets.push(off);
  }
  return { offsets, inner: numel(dims.slice(b + k)), outDims: [...idims.slice(0, -1), ...dims.slice(b + k)] };
}

const gatherNd = {
  cpuInputs: [1],
  check: (node, ins) => (gatherNdOffsets(node, ins) ? null : 'batch_dims, shapes or an index out of range'),
  run(gpu, node, ins, ctx) {
    const { offsets, inner, outDims } = gatherNdOffsets(node, ins);
    const body = `  out[i] = in0[bitcast<u32>(in1[i / ${inner || 1}u]) + i % ${inner || 1}u];`;
    return [{ dims: outDims, buffer: gpu.compute(body, [ins[0].buffer, uploadU32(gpu, offsets, ctx)], numel(outDims)) }];
  },
};

// Where(condition, X, Y), all three broadcast; the bool condition goes up as u32.
const where = {
  cpuInputs: [0],
  check: (node, ins) => (broadcastShape(ins.map((x) => x.dims)) ? null : 'shapes do not broadcast'),
  run(gpu, node, ins, ctx) {
    const [c, x, y] = ins, dims = broadcastShape(ins.map((v) => v.dims));
    const cond = uploadU32(gpu, c.data, ctx);
    const at = (v) => broadcastIndex(v.dims, dims);
    const body = `${coords(dims)}\n  out[i] = select(in1[${at(y)}], in0[${at(x)}], bitcast<u32>(in2[${at(c)}]) != 0u);`;
    return [{ dims, buffer: gpu.compute(body, [x.buffer, y.buffer, cond], numel(dims)) }];
  },
};

// Split sizes: input 1 (opset 13+), the `split` attribute, or equal parts.
function splitSizes(node, ins, opset) {
  const dims = ins[0].dims, axis = normAxis(node.attrs.axis ?? 0, dims.length);
  if (!(axis >= 0 && axis < dims.length)) return null;
  const D = dims[axis], count = node.outputs.length;
  let sizes = opset >= 13 ? list(ins[1]) : node.attrs.split;
  if (!sizes || !sizes.length) {
    if (D % count) return null;
    sizes = new Array(count).fill(D / count);
  }
  if (sizes.length !== count || sizes.reduce((a, b) => a + b, 0) !== D || sizes.some((v) => v < 0)) return null;
  return { axis, sizes };
}

const split = {
  cpuInputs: [1],
  check: (node, ins, ctx) => (splitSizes(node, ins, ctx.opset) ? null : 'split sizes do not fit'),
  run(gpu, node, ins, ctx) {
    const { axis, sizes } = splitSizes(node, ins, ctx.opset);
    const dims = ins[0].dims, D = dims[axis], inner = numel(dims.slice(axis + 1));
    let start = 0;
    return sizes.map((len) => {
      const outDims = dims.map((d, k) => (k === axis ? len : d));
      const body = `  let r = i % ${inner}u; let a = (i / ${inner}u) % ${len || 1}u; let o = i / ${inner * len || 1}u;
  out[i] = in0[(o * ${D}u + ${start}u + a) * ${inner}u + r];`;
      start += len;
      return { dims: outDims, buffer: gpu.compute(body, [ins[0].buffer], numel(outDims)) };
    });
  },
};

export const kernels = { Slice: slice, Gather: gather, GatherElements: gatherElements, GatherND: gatherNd, Split: split, Where: where };
