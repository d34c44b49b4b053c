// Requantization and QdqAdd (kernels/gemm/i8_gemm.h) with WebAssembly SIMD128, 16 values a
// step: the float operations of portable/i8_requantize.inc in the same order (int32 add,
// convert, one multiply, clamp to +-2^22, round by adding and subtracting 1.5 * 2^23, add
// the zero point), so the same bytes. The final clamp is the narrowing instructions'
// saturation (int32 -> int16 signed, then int16 -> 8 bits), which gives the clamp's value
// for every int32. The portable loop, as clang vectorized it, took 6-9% of an int8
// ResNet-50 profile. Compiled only by emscripten (CMakeLists.txt); SIMD128 builds only.
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include <cstdint>
#include <type_traits>

#include "kernels/gemm/i8_gemm.h"
#include "kernels/wasm/i8_lanes_wasm.h"

namespace twinrt::kernels {
namespace {

// 4 values: acc + bias (wrapping), times m, rounded half to even, plus the zero point.
inline v128_t rounded(v128_t acc, v128_t bias, v128_t m, v128_t zero_point) {
  return round_lanes(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_add(acc, bias)), m), zero_point);
}

// Lanes 4v..4v+3 of 16 bytes, widened to int32.
inline v128_t widen(v128_t bytes, int v) {
  const v128_t half = v < 2 ? wasm_u16x8_extend_low_u8x16(bytes) : wasm_u16x8_extend_high_u8x16(bytes);
  return v % 2 == 0 ? wasm_u32x4_extend_low_u16x8(half) : wasm_u32x4_extend_high_u16x8(half);
}

template <class Q>
void requantize(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier, int64_t multiplier_stride,
                int32_t zero_point, Q* out) {
  int64_t i = 0;
  if (multiplier_stride <= 1) {
    const v128_t b = wasm_i32x4_splat(bias), zp = wasm_i32x4_splat(zero_point), m0 = wasm_f32x4_splat(multiplier[0]);
    for (; i + 16 <= n; i += 16) {
      v128_t q[4];
      for (int v = 0; v < 4; ++v) {
        const v128_t m = multiplier_stride ? wasm_v128_load(multiplier + i + 4 * v) : m0;
        q[v] = rounded(wasm_v128_load(acc + i + 4 * v), b, m, zp);
      }
      const v128_t lo = wasm_i16x8_narrow_i32x4(q[0], q[1]), hi = wasm_i16x8_narrow_i32x4(q[2], q[3]);
      wasm_v128_store(out + i, std::is_same_v<Q, uint8_t> ? wasm_u8x16_narrow_i16x8(lo, hi) : wasm_i8x16_narrow_i16x8(lo, hi));
    }
  }
  if (i == n) return;
  const float* rest = multiplier + i * multiplier_stride;
  if constexpr (std::is_same_v<Q, uint8_t>) requantize_u8(acc + i, n - i, bias, rest, multiplier_stride, zero_point, out + i);
  else requantize_s8(acc + i, n - i, bias, rest, multiplier_stride, zero_point, out + i);
}

}  // namespace

// QdqAdd's step (QdqAddParams), 16 values a step: per lane the portable loop's float
// operations in its order (dequantize both, add, Relu as x < 0 ? 0 : x, divide, round),
// so the same bytes; the rest through the portable loop. a may be y (each step reads its
// 16 values before writing them).
void qdq_add_u8__wasmsimd(const uint8_t* a, const uint8_t* b, int64_t n, const QdqAddParams& p, uint8_t* y) {
  const v128_t a_zero = wasm_i32x4_splat(p.a_zero), b_zero = wasm_i32x4_splat(p.b_zero), y_zero = wasm_i32x4_splat(p.y_zero);
  const v128_t a_scale = wasm_f32x4_splat(p.a_scale), b_scale = wasm_f32x4_splat(p.b_scale), y_scale = wasm_f32x4_splat(p.y_scale);
  const v128_t zero = wasm_f32x4_splat(0.0f);
  const bool relu = p.relu;
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128_t va = wasm_v128_load(a + i), vb = wasm_v128_load(b + i);
    v128_t q[4];
    for (int v = 0; v < 4; ++v) {
      const v128_t fa = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_sub(widen(va, v), a_zero)), a_scale);
      const v128_t fb = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_sub(widen(vb, v), b_zero)), b_scale);
      v128_t f = wasm_f32x4_add(fa, fb);
      if (relu) f = wasm_v128_bitselect(zero, f, wasm_f32x4_lt(f, zero));  // NaN and -0 kept
      q[v] = round_lanes(wasm_f32x4_div(f, y_scale), y_zero);
    }
    const v128_t lo = wasm_i16x8_narrow_i32x4(q[0], q[1]), hi = wasm_i16x8_narrow_i32x4(q[2], q[3]);
    wasm_v128_store(y + i, wasm_u8x16_narrow_i16x8(lo, hi));
  }
  qdq_add_u8(a + i, b + i, n - i, p, y + i);
}

void requantize_u8__wasmsimd(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier,
                             int64_t multiplier_stride, int32_t zero_point, uint8_t* out) {
  requantize(acc, n, bias, multiplier, multiplier_stride, zero_point, out);
}
void requantize_s8__wasmsimd(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier,
                             int64_t multiplier_stride, int32_t zero_point, int8_t* out) {
  requantize(acc, n, bias, multiplier, multiplier_stride, zero_point, out);
}

}  // namespace twinrt::kernels
#endif
