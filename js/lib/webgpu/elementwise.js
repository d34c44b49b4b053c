// Elementwise kernels: Add/Sub/Mul/Div/Pow with numpy broadcasting; Relu, Sigmoid, Clip and
// the other activations of fused groups (program.js); FusedElementwise, the groups that a
// graph pass merged into one node.
import { programCode, programProblem, stepExpr } from './program.js';
import { bindOperands } from './operands.js';
import { attrNumber, broadcastIndex, broadcastShape, coords, numel } from './wgsl.js';

const BINARY = ['Add', 'Sub', 'Mul', 'Div', 'Pow'];

function binary(op) {
  return {
    check(node, ins) {
      return broadcastShape([ins[0].dims, ins[1].dims]) ? null : 'shapes do not broadcast';
    },
    run(gpu, node, ins) {
      const [a, b] = ins;
      const dims = broadcastShape([a.dims, b.dims]);
      const body = `${coords(dims)}
  out[i] = ${stepExpr(op, [`in0[${broadcastIndex(a.dims, dims)}]`, `in1[${broadcastIndex(b.dims, dims)}]`], [])};`;
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

// Attributes of the unary ops as ir::ElementwiseStep params, with ONNX's defaults.
const PARAMS = {
  HardSigmoid: (a) => [a.alpha ?? 0.2, a.beta ?? 0.5],
  LeakyRelu: (a) => [a.alpha ?? 0.01],
};
const UNARY = ['Relu', 'Sigmoid', 'Tanh', 'Exp', 'Sqrt', 'Erf', 'HardSwish', 'HardSigmoid', 'LeakyRelu'];

// Clip's bounds: inputs 1 and 2 from opset 11, attributes before. Compared as the wasm
// kernel does (x < min ? min : x, then > max), which keeps NaN inputs as NaN.
function clipExpr(node, ins) {
  const bound = (k, attr, none) => {
    if (ins[k]) return ins[k].data[0];
    return node.attrs[attr] === undefined ? none : attrNumber(node.attrs[attr]);
  };
  return stepExpr('Clip', ['x'], [bound(1, 'min', -Infinity), bound(2, 'max', Infinity)]);
}

const fusedElementwise = {
  check(node, ins) {
    if (ins.some((x) => !x)) return 'omitted input';
    if (!broadcastShape(ins.map((x) => x.dims))) return 'shapes do not broadcast';
    return programProblem(node.fused.elementwise || []);
  },
  run(gpu, node, ins, ctx) {
    const dims = broadcastShape(ins.map((x) => x.dims));
    const inputs = [];
    const { code, result } = programCode(node.fused.elementwise, bindOperands(gpu, ins, dims, inputs, ctx.keep, 'c'));
    const body = `${coords(dims)}\n${code}\n  out[i] = ${result};`;
    return [{ dims, buffer: gpu.compute(body, inputs, numel(dims)) }];
  },
};

export const kernels = {
  'ai.twinrt:FusedElementwise': fusedElementwise,
  ...Object.fromEntries(BINARY.map((op) => [op, binary(op)])),
  ...Object.fromEntries(UNARY.map((op) => [op, unary((node) => stepExpr(op, ['x'], PARAMS[op] ? PARAMS[op](node.attrs) : []))])),
  Clip: unary(clipExpr, [1, 2]),
};
