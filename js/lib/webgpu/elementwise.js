// Elementwise kernels: Add/Sub/Mul/Div with numpy broadcasting; Relu, Sigmoid, Clip.
import { attrNumber, broadcastIndex, broadcastShape, coords, f32, numel } from './wgsl.js';

const BINARY = { Add: '+', Sub: '-', Mul: '*', Div: '/' };

function binary(op) {
  return {
    check(node, ins) {
      return broadcastShape([ins[0].dims, ins[1].dims]) ? null : 'shapes do not broadcast';
    },
    run(gpu, node, ins) {
      const [a, b] = ins;
      const dims = broadcastShape([a.dims, b.dims]);
      const body = `${coords(dims)}
  out[i] = in0[${broadcastIndex(a.dims, dims)}] ${op} in1[${broadcastIndex(b.dims, dims)}];`;
      return [{ dims, buffer: gpu.compute(body, [a.buffer, b.buffer], numel(dims)) }];
    },
  };
}

// A unary kernel from the WGSL expression of `x`; `expr(node, ins)` may read constants.
function unary(expr, cpuInputs = []) {
  return {
    cpuInputs,
    check: () => null,
    run(gpu, node, ins) {
      const x = ins[0];
      const body = `  let x = in0[i];\n  out[i] = ${expr(node, ins)};`;
      return [{ dims: x.dims, buffer: gpu.compute(body, [x.buffer], numel(x.dims)) }];
    },
  };
}

// Clip's bounds: inputs 1 and 2 from opset 11, attributes before. Comparisons as the wasm
// kernel does them (x < min ? min : x, then > max), which keeps NaN inputs as NaN.
function clipExpr(node, ins) {
  const bound = (k, attr) => {
    if (ins[k]) return ins[k].data[0];
    return node.attrs[attr] === undefined ? null : attrNumber(node.attrs[attr]);
  };
  let e = 'x';
  const lo = bound(1, 'min'), hi = bound(2, 'max');
  if (lo !== null && Number.isFinite(lo)) e = `select(${e}, ${f32(lo)}, ${e} < ${f32(lo)})`;
  if (hi !== null && Number.isFinite(hi)) e = `select(${e}, ${f32(hi)}, ${e} > ${f32(hi)})`;
  return e;
}

export const kernels = {
  ...Object.fromEntries(Object.entries(BINARY).map(([name, op]) => [name, binary(op)])),
  Relu: unary(() => 'select(x, 0.0, x < 0.0)'),
  Sigmoid: unary(() => '1.0 / (1.0 + exp(-x))'),
  Clip: unary(clipExpr, [1, 2]),
};
