// WebAssembly SIMD128 helpers shared by the int8 kernels of kernels/wasm: requantize_u8/_s8's
// rounding (kernels/portable/i8_requantize.inc: round_to) on 4 float lanes, used by the
// requantize loops and by the tile that requantizes in its epilogue (so both give round_to's
// bytes), and the store of a tile row's 8 int32 sums.
#pragma once
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include <cstdint>

namespace twinrt::kernels {

// round_to's float part: clamped to +-2^22 (NaN to -2^22), rounded half to even by adding
// and subtracting 1.5 * 2^23, plus the zero point. The final clamp to 8 bits is the
// caller's narrowing (int32 -> int16 signed, then int16 -> 8 bits), which saturates to
// the clamp's value for every int32.
inline v128_t round_lanes(v128_t f, v128_t zero_point) {
  const v128_t limit = wasm_f32x4_splat(4194304.0f), magic = wasm_f32x4_splat(12582912.0f);
  f = wasm_f32x4_pmax(wasm_f32x4_neg(limit), f);  // f > -limit ? f : -limit (NaN: -limit)
  f = wasm_f32x4_pmin(limit, f);                  // f < limit ? f : limit
  f = wasm_f32x4_sub(wasm_f32x4_add(f, magic), magic);
  return wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(f), zero_point);
}

// A tile row's 8 sums (columns 0-3, 4-7) to c[0 .. col_count): two vector stores for a
// whole panel (a variable-length memcpy here was a call per row: 7.6% of a ResNet-50
// profile), else through a buffer.
inline void store_sums(int32_t* c, const v128_t (&sums)[2], int col_count) {
  if (col_count == 8) {
    wasm_v128_store(c, sums[0]);
    wasm_v128_store(c + 4, sums[1]);
    return;
  }
  int32_t out[8];
  wasm_v128_store(out, sums[0]);
  wasm_v128_store(out + 4, sums[1]);
  for (int j = 0; j < col_count; ++j) c[j] = out[j];
}

}  // namespace twinrt::kernels
#endif
