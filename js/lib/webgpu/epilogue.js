// What graph passes folded into Conv / Gemm / MatMul (src/passes): a residual Add (the
// node's last input, same shape as the output) and then a clamp (Relu, Clip). The GPU
// kernel applies them in that order to `acc` before storing, like the wasm kernel does.
import { attrNumber, f32 } from './wgsl.js';

// Null when the node's fused work can run on the GPU, else why not.
export function epilogueProblem(node, ins, outDims) {
  if (node.fused.elementwise) return 'fused elementwise steps';
  if (node.fused.residual) {
    const r = ins[ins.length - 1];
    if (!r || r.dims.join() !== outDims.join()) return 'residual of another shape';
  }
  return null;
}

// WGSL statements applied to `acc` for output element `i`; `residual` names its buffer.
export function epilogue(node, residual) {
  const lines = [];
  if (node.fused.residual) lines.push(`  acc = acc + ${residual}[i];`);
  const clamp = node.fused.clamp;
  if (clamp) {
    const [lo, hi] = clamp.map((v) => (v === null ? null : attrNumber(v)));
    if (lo !== null && Number.isFinite(lo)) lines.push(`  if (acc < ${f32(lo)}) { acc = ${f32(lo)}; }`);
    if (hi !== null && Number.isFinite(hi)) lines.push(`  if (acc > ${f32(hi)}) { acc = ${f32(hi)}; }`);
  }
  return lines.join('\n');
}
