// The ten Reduce* ops: one invocation per output element folds its input elements in
// row-major order into a float32 accumulator (the wasm kernel's order and, in default and
// exact mode, its accumulator type), then finishes it. Axes come from the attribute, or
// from input 1 where the opset moved them there (ReduceSum in 13, the others in 18).
import { coords, numel, strides } from './wgsl.js';
import { typeOf } from './types.js';

// Max/Min keep the first NaN, as the wasm kernel's nan_max/nan_min do.
const MAX = 'select(acc, v, v > acc || v != v)';
const MIN = 'select(acc, v, v < acc || v != v)';

// fold: `acc` after element `v`, from `init` (null: the first element, as WGSL has no -inf
// constant); finish: the output from `acc` (n: the element count); empty: the value of a
// reduction over no element (ONNX: 0 for the sums, 1 for the product, -inf for Max and the
// log-sums, +inf for Min; Mean is undefined there and the wasm kernel's 0 / 0 gives NaN).
const KINDS = {
  ReduceSum: { init: '0.0', fold: 'acc + v', empty: 0 },
  ReduceMean: { init: '0.0', fold: 'acc + v', finish: (n) => `acc / f32(${n})`, empty: NaN },
  ReduceProd: { init: '1.0', fold: 'acc * v', empty: 1 },
  ReduceMax: { init: null, fold: MAX, empty: -Infinity },
  ReduceMin: { init: null, fold: MIN, empty: Infinity },
  ReduceL1: { init: '0.0', fold: 'acc + abs(v)', empty: 0 },
  ReduceL2: { init: '0.0', fold: 'acc + v * v', finish: () => 'sqrt(acc)', empty: 0 },
  ReduceSumSquare: { init: '0.0', fold: 'acc + v * v', empty: 0 },
  ReduceLogSum: { init: '0.0', fold: 'acc + v', finish: () => 'log(acc)', empty: -Infinity },
  // max + log(sum(exp(x - max))), so exp cannot overflow; an infinite or NaN max is the
  // result as it is (the wasm kernel's log_sum_exp). `m` is the max, from a first pass.
  ReduceLogSumExp: { max: true, init: '0.0', fold: 'acc + exp(v - m)', empty: -Infinity,
    finish: () => 'select(m, m + log(acc), (bitcast<u32>(m) & 0x7f800000u) != 0x7f800000u)' },
};

// The empty value as float16 bits, for a float16 output.
const F16_BITS = new Map([[0, 0x0000], [1, 0x3c00], [Infinity, 0x7c00], [-Infinity, 0xfc00], [NaN, 0x7e00]]);

// The sorted reduced axes, [] for "no reduction" (noop_with_empty_axes), or null when invalid.
function reducedAxes(node, ins, opset) {
  const rank = ins[0].dims.length;
  const fromInput = opset >= (node.op === 'ReduceSum' ? 13 : 18);
  let axes = fromInput ? (ins[1] ? Array.from(ins[1].data, Number) : []) : (node.attrs.axes || []);
  if (!axes.length) axes = node.attrs.noop_with_empty_axes && fromInput ? [] : ins[0].dims.map((_, k) => k);
  axes = axes.map((a) => (a < 0 ? a + rank : a));
  if (axes.some((a) => a < 0 || a >= rank) || new Set(axes).size !== axes.length) return null;
  return axes.sort((a, b) => a - b);
}

// A reduction over no element: every output is the kind's empty value, written from the CPU.
function filled(gpu, value, n, type) {
  if (type === 'float16') return gpu.upload(new Uint16Array(n).fill(F16_BITS.get(value)), 'float16');
  return gpu.upload(new Float32Array(n).fill(value));
}

const reduce = (kind) => ({
  cpuInputs: [1],
  check: (node, ins, ctx) => (reducedAxes(node, ins, ctx.opset) ? null : 'axes out of range'),
  run(gpu, node, ins, ctx) {
    const dims = ins[0].dims, s = strides(dims);
    const axes = reducedAxes(node, ins, ctx.opset);
    // noop_with_empty_axes: the input as it is (not even squared and rooted by ReduceL2).
    if (!axes.length) return [{ dims, buffer: ins[0].buffer }];
    const kept = dims.map((_, k) => k).filter((k) => !axes.includes(k));
    const outDims = (node.attrs.keepdims ?? 1) ? dims.map((d, k) => (axes.includes(k) ? 1 : d)) : kept.map((k) => dims[k]);
    const reduced = axes.map((a) => dims[a]), rs = strides(reduced), count = numel(reduced);
    if (!count) return [{ dims: outDims, buffer: filled(gpu, kind.empty, numel(outDims), typeOf(ins[0].buffer)) }];
    const base = kept.map((k, j) => `c${j} * ${s[k]}u`).join(' + ') || '0u';
    const offset = axes.map((a, j) => `((r / ${rs[j]}u) % ${reduced[j]}u) * ${s[a]}u`).join(' + ') || '0u';
    const loop = (fold) => `  for (var r = 0u; r < ${count}u; r++) { let v = in0[base + ${offset}]; acc = ${fold}; }`;
    // ReduceLogSumExp's first pass finds the max `m` (from the first element, as Max does).
    const start = kind.max ? ['  var acc = in0[base];', loop(MAX), '  let m = acc;', `  acc = ${kind.init};`]
      : [`  var acc = ${kind.init ?? 'in0[base]'};`];
    const body = [
      coords(kept.map((k) => dims[k])),
      `  let base = ${base};`,
      ...start,
      loop(kind.fold),
      `  out[i] = ${kind.finish ? kind.finish(count) : 'acc'};`,
    ].join('\n');
    return [{ dims: outDims, buffer: gpu.compute(body, [ins[0].buffer], numel(outDims)) }];
  },
});

export const kernels = Object.fromEntries(Object.entries(KINDS).map(([op, kind]) => [op, reduce(kind)]));
