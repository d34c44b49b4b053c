// What graph passes folded into Conv / Gemm / MatMul (src/passes): a MatMul's bias (input
// 2, [N]), a residual Add (the node's last input), then a clamp (Relu, Clip), then an
// elementwise group whose extra operands are the node's inputs from `firstInput` on. The GPU
// kernel applies them to `acc` in that order before storing, as the wasm kernel does:
// y = post(clamp(acc + bias + r)).
import { programCode, programProblem } from './program.js';
import { bindOperands } from './operands.js';
import { attrNumber, broadcastShape, coords, f32 } from './wgsl.js';

const fitsOutput = (dims, outDims) => broadcastShape([dims, outDims])?.join() === outDims.join();

// Inputs the epilogue reads: the bias and the residual, or the elementwise group's operands.
function extraInputs(node, ins) {
  const added = [...(node.fused.bias ? [ins[2]] : []), ...(node.fused.residual ? [ins[ins.length - 1]] : [])];
  if (added.length) return added;
  if (node.fused.elementwise) return ins.slice(node.fused.firstInput);
  return [];
}

// Null when the node's fused work can run on the GPU, else why not.
export function epilogueProblem(node, ins, outDims) {
  if (node.fused.elementwise) {
    const problem = programProblem(node.fused.elementwise);
    if (problem) return problem;
  }
  if (extraInputs(node, ins).some((x) => !x || !fitsOutput(x.dims, outDims))) return 'fused operand of another shape';
  return null;
}

// WGSL statements that clamp `acc` as a Relu / Clip folded into the node does (none without one).
export function clampLines(node) {
  const clamp = node.fused.clamp;
  if (!clamp) return [];
  const [lo, hi] = clamp.map((v) => (v === null ? null : attrNumber(v)));
  const lines = [];
  if (lo !== null && Number.isFinite(lo)) lines.push(`  if (acc < ${f32(lo)}) { acc = ${f32(lo)}; }`);
  if (hi !== null && Number.isFinite(hi)) lines.push(`  if (acc > ${f32(hi)}) { acc = ${f32(hi)}; }`);
  return lines;
}

// WGSL statements that finish `acc` for output element `i` of `outDims`. Appends the
// buffers they read to `inputs` (bound in that order after what is there); ctx.keep takes
// the buffers made for this run.
export function epilogue(gpu, node, ins, outDims, inputs, ctx) {
  const extras = extraInputs(node, ins);
  const names = bindOperands(gpu, extras, outDims, inputs, ctx.keep, 'e');
  const lines = extras.length ? [coords(outDims, 'i', 'e')] : [];
  if (node.fused.bias || node.fused.residual) for (const name of names) lines.push(`  acc = acc + ${name};`);
  lines.push(...clampLines(node));
  if (node.fused.elementwise) {
    const { code, result } = programCode(node.fused.elementwise, ['acc', ...names]);
    lines.push(code, `  acc = ${result};`);
  }
  return lines.join('\n');
}
