// MatMul (numpy semantics: batched, broadcast batch dims, 1-D operands) and Gemm. Each
// invocation computes one output element, summing k = 0..K-1 in order in float32.
import { epilogue, epilogueProblem } from './epilogue.js';
import { attrNumber, broadcastIndex, broadcastShape, coords, f32, numel, strides } from './wgsl.js';

// Shapes of a MatMul: operands promoted to rank >= 2, batch dims broadcast.
function matmulShapes(aDims, bDims) {
  if (!aDims.length || !bDims.length) return null;
  const a = aDims.length === 1 ? [1, aDims[0]] : aDims;
  const b = bDims.length === 1 ? [bDims[0], 1] : bDims;
  const [M, K] = a.slice(-2), [K2, N] = b.slice(-2);
  if (K !== K2) return null;
  const batch = broadcastShape([a.slice(0, -2), b.slice(0, -2)]);
  if (!batch) return null;
  const out = [...batch, ...(aDims.length === 1 ? [] : [M]), ...(bDims.length === 1 ? [] : [N])];
  return { a, b, M, K, N, batch, out };
}

// Offset of the batch's first element in an operand of `dims` (promoted) for batch coords c0...
const batchOffset = (dims, batch) =>
  (batch.length ? `(${broadcastIndex(dims.slice(0, -2), batch)}) * ${numel(dims.slice(-2))}u` : '0u');

const matMul = {
  check(node, ins) {
    // Folded Transposes (strides) and a folded scale run on the wasm kernel.
    const { permA, permB, permY, scale } = node.fused || {};
    if (permA || permB || permY || scale !== undefined) return 'folded Transpose or scale';
    const s = matmulShapes(ins[0].dims, ins[1].dims);
    return s ? epilogueProblem(node, ins, s.out) : 'shapes do not multiply';
  },
  run(gpu, node, ins, ctx) {
    const { a, b, M, K, N, batch, out } = matmulShapes(ins[0].dims, ins[1].dims);
    const inputs = [ins[0].buffer, ins[1].buffer];
    const finish = epilogue(gpu, node, ins, out, inputs, ctx);
    const body = `${coords([...batch, M, N])}
  let m = c${batch.length}; let n = c${batch.length + 1};
  let aBase = ${batchOffset(a, batch)} + m * ${K}u;
  let bBase = ${batchOffset(b, batch)} + n;
  var acc = 0.0;
  for (var k = 0u; k < ${K}u; k++) { acc = acc + in0[aBase + k] * in1[bBase + k * ${N}u]; }
${finish}
  out[i] = acc;`;
    return [{ dims: out, buffer: gpu.compute(body, inputs, numel(out)) }];
  },
};

function gemmShapes(node, ins) {
  const [a, b] = ins;
  if (a.dims.length !== 2 || b.dims.length !== 2) return null;
  const ta = node.attrs.transA || 0, tb = node.attrs.transB || 0;
  const [M, K] = ta ? [a.dims[1], a.dims[0]] : a.dims;
  const [K2, N] = tb ? [b.dims[1], b.dims[0]] : b.dims;
  return K === K2 ? { M, K, N, ta, tb } : null;
}

const gemm = {
  check(node, ins) {
    const s = gemmShapes(node, ins);
    if (!s) return 'shapes do not multiply';
    const c = ins[2];
    if (c && (c.dims.length > 2 || broadcastShape([c.dims, [s.M, s.N]])?.join() !== [s.M, s.N].join()))
      return 'C does not broadcast to [M, N]';
    return epilogueProblem(node, ins, [s.M, s.N]);
  },
  run(gpu, node, ins, ctx) {
    const { M, K, N, ta, tb } = gemmShapes(node, ins);
    const alpha = attrNumber(node.attrs.alpha ?? 1), beta = attrNumber(node.attrs.beta ?? 1);
    const [sa, sb] = [strides(ins[0].dims), strides(ins[1].dims)];
    const aAt = ta ? `k * ${sa[0]}u + m` : `m * ${sa[0]}u + k`;
    const bAt = tb ? `n * ${sb[0]}u + k` : `k * ${sb[0]}u + n`;
    const inputs = [ins[0].buffer, ins[1].buffer];
    const c = ins[2];
    let cTerm = '';
    if (c && beta !== 0) {
      inputs.push(c.buffer);
      cTerm = `  acc = acc + ${f32(beta)} * in2[${broadcastIndex(c.dims, [M, N])}];`;
    }
    const finish = epilogue(gpu, node, ins, [M, N], inputs, ctx);
    const body = `${coords([M, N])}
  let m = c0; let n = c1;
  var acc = 0.0;
  for (var k = 0u; k < ${K}u; k++) { acc = acc + in0[${aAt}] * in1[${bAt}]; }
  acc = ${f32(alpha)} * acc;
${cTerm}
${finish}
  out[i] = acc;`;
    return [{ dims: [M, N], buffer: gpu.compute(body, inputs, M * N) }];
  },
};

export const kernels = { MatMul: matMul, Gemm: gemm };
