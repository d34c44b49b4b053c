// Cast between float32, float16 (with shader-f16), int32 and int64, with the wasm kernel's
// rules (src/ops/cast/element_convert.h): float -> integer truncates toward zero, saturates
// and maps NaN to 0; integer -> integer wraps; integer -> float rounds to nearest even, once.
// Each source is read as an f32 (floats) or as int64 words (integers, int32 sign-extended).
// Only a value already on the GPU is cast there: shape arithmetic on CPU tensors stays on wasm.
const TO = { 1: 'float32', 6: 'int32', 7: 'int64', 10: 'float16' };
const isFloat = (type) => type === 'float32' || type === 'float16';

function read(type) {
  if (isFloat(type)) return '  let x = in0[i];';
  if (type === 'int32') return '  let v = in0[i];\n  let lo = bitcast<u32>(v); let hi = select(0u, 0xffffffffu, v < 0);';
  return '  let lo = in0[2u * i]; let hi = in0[2u * i + 1u];';
}

function write(from, to) {
  if (isFloat(to)) return `  out[i] = ${isFloat(from) ? 'x' : 'twinrt_i64_to_f32(lo, hi)'};`;
  if (to === 'int32') return `  out[i] = ${isFloat(from) ? 'twinrt_f32_to_i32(x)' : 'bitcast<i32>(lo)'};`;
  const w = isFloat(from) ? '  let w = twinrt_f32_to_i64(x);\n' : '  let w = vec2<u32>(lo, hi);\n';
  return `${w}  out[2u * i] = w.x;\n  out[2u * i + 1u] = w.y;`;
}

const cast = {
  types: ['float32', 'float16', 'int32', 'int64'],
  check(node, ins, ctx) {
    const to = TO[node.attrs.to];
    if (!to) return `to ${node.attrs.to}: no GPU form`;
    if (to === 'float16' && !ctx.f16) return 'to float16 (the adapter has no shader-f16)';
    return ins[0].onGpu ? null : 'its input is on the CPU';
  },
  run(gpu, node, ins) {
    const [x] = ins, to = TO[node.attrs.to];
    const n = x.dims.reduce((a, b) => a * b, 1);
    return [{ dims: x.dims, buffer: gpu.compute(`${read(x.type)}\n${write(x.type, to)}`, [x.buffer], n, n, to) }];
  },
};

export const kernels = { Cast: cast };
