// Elementwise groups that graph passes fused (src/passes/fuse_elementwise.cc): a list of
// steps over numbered values, as in ir::ElementwiseStep. Here each becomes one WGSL `let`
// per step, evaluated per output element (broadcasting commutes with elementwise steps).
import { attrNumber, f32 } from './wgsl.js';

const BINARY = { Add: '+', Sub: '-', Mul: '*', Div: '/' };

// x < bound and x > bound; against 0 on the bits (math.js), so subnormals compare as on the CPU.
const below = (x, bound) => (bound === 0 ? `twinrt_below_zero(${x})` : `${x} < ${f32(bound)}`);
const above = (x, bound) => (bound === 0 ? `twinrt_above_zero(${x})` : `${x} > ${f32(bound)}`);

function clampExpr(x, lo, hi) {
  let e = x;
  if (Number.isFinite(lo)) e = `select(${e}, ${f32(lo)}, ${below(e, lo)})`;
  if (Number.isFinite(hi)) e = `select(${e}, ${f32(hi)}, ${above(e, hi)})`;
  return e;
}

// WGSL for one step on operand expressions a (and b); null when there is no GPU form.
// Pow is no fused step but shares the form. params as in ir::ElementwiseStep (Clip: min, max; HardSigmoid: alpha, beta; LeakyRelu: alpha).
export function stepExpr(op, [a, b], params) {
  const p = params.map(attrNumber);
  if (BINARY[op]) return `${a} ${BINARY[op]} ${b}`;
  switch (op) {
    case 'Clip': return clampExpr(a, p[0], p[1]);
    case 'Relu': return `select(${a}, 0.0, ${below(a, 0)})`;
    case 'LeakyRelu': return `select(${a}, ${f32(p[0])} * ${a}, ${below(a, 0)})`;
    case 'HardSigmoid': return `max(0.0, min(1.0, ${f32(p[0])} * ${a} + ${f32(p[1])}))`;
    case 'HardSwish': return `${a} * max(0.0, min(1.0, ${a} / 6.0 + 0.5))`;
    case 'Sigmoid': return `1.0 / (1.0 + exp(-${a}))`;
    case 'Tanh': return `tanh(${a})`;
    case 'Sqrt': return `sqrt(${a})`;
    case 'Exp': return `exp(${a})`;
    case 'Erf': return `twinrt_erf(${a})`;
    case 'Pow': return `twinrt_pow(${a}, ${b})`;
    default: return null;
  }
}

// Null when every step has a GPU form, else which does not.
export function programProblem(steps) {
  const bad = steps.find((s) => stepExpr(s.op, ['x', 'x'], s.params) === null);
  return bad ? `fused ${bad.op}` : null;
}

// WGSL statements: `let p0 = operands[0];` ... then one `let` per step; the result is the
// last step's value, returned as its name.
export function programCode(steps, operands) {
  const lines = operands.map((o, k) => `  let p${k} = ${o};`);
  steps.forEach((s, k) => {
    lines.push(`  let p${operands.length + k} = ${stepExpr(s.op, s.args.map((a) => `p${a}`), s.params)};`);
  });
  return { code: lines.join('\n'), result: `p${operands.length + steps.length - 1}` };
}
