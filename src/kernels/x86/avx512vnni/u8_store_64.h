// The last step of this folder's 8-bit outputs: four vectors of int32 values (64 outputs in
// order) clamped to 0-255 and written with one 64-byte store. vpackssdw then vpackuswb clamp
// exactly as a max with 0 and an unsigned-saturating narrowing (vpmovusdb) would, but work
// within 128-bit lanes, so lane L ends up holding 4 values of each vector (its values 4L to
// 4L + 3); a dword permutation puts each vector's 16 together. Four masked narrowing stores
// would cost 2 uops and a store each. Included only by this folder, which shares its flags.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace twinrt::kernels {
namespace {

inline void store_u8_64(uint8_t* y, __m512i q0, __m512i q1, __m512i q2, __m512i q3) {
  const __m512i lanes = _mm512_packus_epi16(_mm512_packs_epi32(q0, q1), _mm512_packs_epi32(q2, q3));
  const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  _mm512_storeu_si512(y, _mm512_permutexvar_epi32(order, lanes));
}

}  // namespace
}  // namespace twinrt::kernels
