// WGSL functions that the language lacks (erf) or defines differently from ONNX (pow of a
// negative base). device.js adds to a shader the ones its body calls, so kernels write
// `twinrt_erf(x)` like any builtin.
import { f32 } from './wgsl.js';

// c[0] + c[1] t + ... as Horner's rule, innermost the highest term (erf_float.h's order).
const horner = (c, t) => c.slice(0, -1).reduceRight((acc, ci) => `(${acc}) * ${t} + ${ci}`, c[c.length - 1]);

// Default mode's erf (src/kernels/math/erf_float.h): the same float operations in the same
// order, so a GPU that neither contracts nor reorders them gives the wasm kernel's bits.
// Only the rounding of k differs in form: round() (ties to even) where the C++ adds and
// subtracts 1.5 * 2^23, the same value for these |t| < 16.
const P1 = ['0x1.20dd76p+0f', '-0x1.812744p-2f', '0x1.ce2e84p-4f', '-0x1.b819a8p-6f', '0x1.553ac2p-8f', '-0x1.ae7fe6p-11f', '0x1.6be082p-14f'];
const P2 = ['0x1.fff3f6p-1f', '0x1.fd1dd6p-1f', '0x1.d7e03cp-2f', '0x1.812d94p-4f', '0x1.7a6ceep-19f'];
const Q2 = ['0x1p+0f', '0x1.0f9ffep+1f', '0x1.db908ep+0f', '0x1.a15d38p-1f', '0x1.55a09p-3f'];
const EXP_TAYLOR = [1, 1, 1 / 2, 1 / 6, 1 / 24, 1 / 120, 1 / 720, 1 / 5040].map(f32);

const ERF = `fn twinrt_erf(x : f32) -> f32 {
  let sign = bitcast<u32>(x) & 0x80000000u;
  let ax = bitcast<f32>(bitcast<u32>(x) ^ sign);
  let z = ax * ax;
  let small = ax * ${P1[0]} + (ax * z) * (${horner(P1.slice(1), 'z')});
  let c = select(3.925f, ax, ax < 3.925f);
  let t = -(c * c);
  let k = round(t * 0x1.715476p+0f);
  let r = (t - k * 0x1.62e4p-1f) - k * 0x1.7f7d1cp-20f;
  let exp_t = (${horner(EXP_TAYLOR, 'r')}) * bitcast<f32>((i32(k) + 127) << 23u);
  let big = 1.0f - exp_t * ((${horner(P2, 'c')}) / (${horner(Q2, 'c')}));
  let v = bitcast<f32>(bitcast<u32>(select(big, small, ax < 0.875f)) | sign);
  return select(v, x + x, x != x);
}`;

// ONNX Pow on floats, as C's pow: WGSL's pow (exp2(y log2 x)) is undefined for x <= 0, so
// zero and negative bases are handled here; x * x keeps the common square exact. Infinity
// and NaN are made at run time (WGSL refuses them as constants).
const POW = `fn twinrt_pow(x : f32, y : f32) -> f32 {
  if (y == 2.0f) { return x * x; }
  if (y == 1.0f) { return x; }
  if (y == 0.0f) { return 1.0f; }
  let ay = abs(y);
  let bits = bitcast<u32>(x);
  if (x < 0.0f && fract(ay) != 0.0f) { return bitcast<f32>(bits | 0x7fc00000u); }
  var p = pow(abs(x), y);
  if (x == 0.0f) { p = select(0.0f, 1.0f / abs(x), y < 0.0f); }
  let odd = ay < 16777216.0f && fract(ay * 0.5f) == 0.5f;
  return select(p, -p, (bits >> 31u) == 1u && odd);
}`;

// Sign tests on the bits: a GPU that treats subnormals as zero (SwiftShader does) finds a
// negative subnormal not below 0, where the wasm kernels' Relu and Clip make it 0. NaN and
// -0 are neither.
const BELOW_ZERO = `fn twinrt_below_zero(x : f32) -> bool {
  let b = bitcast<u32>(x);
  return b > 0x80000000u && b <= 0xff800000u;
}`;
const ABOVE_ZERO = `fn twinrt_above_zero(x : f32) -> bool {
  let b = bitcast<u32>(x);
  return b > 0u && b <= 0x7f800000u;
}`;

// Cast's conversions (cast.js). An int64 is two u32 words (low, high). Float -> integer:
// NaN (tested on the bits) to 0, out of range saturated, else truncated toward zero (WGSL's
// conversion of an in-range value); the float -> int64 split is exact (a multiple of 2^-32
// and differences of integers below 2^32).
const F32_TO_I32 = `fn twinrt_f32_to_i32(x : f32) -> i32 {
  if ((bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u) { return 0; }
  if (x >= 0x1p31f) { return 2147483647; }
  if (x <= -0x1p31f) { return -2147483647 - 1; }
  return i32(x);
}`;
const F32_TO_I64 = `fn twinrt_f32_to_i64(x : f32) -> vec2<u32> {
  if ((bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u) { return vec2<u32>(0u, 0u); }
  if (x >= 0x1p63f) { return vec2<u32>(0xffffffffu, 0x7fffffffu); }
  if (x <= -0x1p63f) { return vec2<u32>(0u, 0x80000000u); }
  let a = abs(trunc(x));
  let hi = floor(a * 0x1p-32f);
  let w = vec2<u32>(u32(a - hi * 0x1p32f), u32(hi));
  if (x >= 0.0f) { return w; }
  let lo = ~w.x + 1u;
  return vec2<u32>(lo, ~w.y + select(0u, 1u, lo == 0u));
}`;
// int64 -> f32 rounded once to nearest even: the magnitude's top 32 bits, with a sticky bit
// for the ones below (they only break ties), converted as two exact 16-bit halves whose sum
// is the one rounding, then scaled by a power of two (exact). WGSL leaves the rounding of a
// plain f32(u32) above 2^24 to the implementation.
const I64_TO_F32 = `fn twinrt_i64_to_f32(lo : u32, hi : u32) -> f32 {
  let neg = (hi >> 31u) == 1u;
  var ml = lo; var mh = hi;
  if (neg) { ml = ~lo + 1u; mh = ~hi + select(0u, 1u, ml == 0u); }
  var top = ml; var e = 0;
  if (mh != 0u) {
    let n = countLeadingZeros(mh);
    top = select((mh << n) | (ml >> (32u - n)), mh, n == 0u) | select(0u, 1u, (ml << n) != 0u);
    e = 32 - i32(n);
  }
  let r = ldexp(f32(top >> 16u) * 65536.0f + f32(top & 0xffffu), e);
  return select(r, -r, neg);
}`;

const FUNCTIONS = { twinrt_erf: ERF, twinrt_pow: POW, twinrt_below_zero: BELOW_ZERO, twinrt_above_zero: ABOVE_ZERO,
  twinrt_f32_to_i32: F32_TO_I32, twinrt_f32_to_i64: F32_TO_I64, twinrt_i64_to_f32: I64_TO_F32 };

// The definitions of the functions above that `body` calls.
export function helpersFor(body) {
  return Object.entries(FUNCTIONS).filter(([name]) => body.includes(`${name}(`)).map(([, code]) => `${code}\n`).join('');
}
