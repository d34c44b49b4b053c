// ReduceSum, ReduceMean, ReduceMax, ReduceMin: one invocation per output element folds its
// input elements in row-major order (the order of the wasm kernel), then writes it. Axes
// come from the attribute, or from input 1 where the opset moved them there.
import { coords, numel, strides } from './wgsl.js';

// [init, fold of `acc` and `v`, finish]; Max/Min keep the first NaN, as the wasm kernel does.
const KINDS = {
  ReduceSum: ['0.0', 'acc + v', () => 'acc'],
  ReduceMean: ['0.0', 'acc + v', (n) => `acc / f32(${n})`],
  ReduceMax: ['in0[base]', 'select(acc, v, v > acc || v != v)', () => 'acc'],
  ReduceMin: ['in0[base]', 'select(acc, v, v < acc || v != v)', () => 'acc'],
};

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

const reduce = (op) => ({
  cpuInputs: [1],
  check(node, ins, ctx) {
    if (!reducedAxes(node, ins, ctx.opset)) return 'axes out of range';
    return numel(ins[0].dims) ? null : 'empty input';
  },
  run(gpu, node, ins, ctx) {
    const dims = ins[0].dims, s = strides(dims);
    const axes = reducedAxes(node, ins, ctx.opset);
    const noop = !axes.length;
    const kept = dims.map((_, k) => k).filter((k) => !axes.includes(k));
    const keepdims = node.attrs.keepdims ?? 1;
    const outDims = noop ? dims : keepdims ? dims.map((d, k) => (axes.includes(k) ? 1 : d)) : kept.map((k) => dims[k]);
    const reduced = axes.map((a) => dims[a]), rs = strides(reduced), count = numel(reduced);
    const base = kept.map((k, j) => `c${j} * ${s[k]}u`).join(' + ') || '0u';
    const offset = axes.map((a, j) => `((r / ${rs[j]}u) % ${reduced[j]}u) * ${s[a]}u`).join(' + ') || '0u';
    const [init, fold, finish] = KINDS[op];
    const body = `${coords(kept.map((k) => dims[k]))}
  let base = ${base};
  var acc = ${init};
  for (var r = 0u; r < ${count}u; r++) { let v = in0[base + ${offset}]; acc = ${fold}; }
  out[i] = ${finish(count)};`;
    return [{ dims: outDims, buffer: gpu.compute(body, [ins[0].buffer], numel(outDims)) }];
  },
});

export const kernels = Object.fromEntries(Object.keys(KINDS).map((op) => [op, reduce(op)]));
