// The last step of the AVX2 8-bit tiles: row r's 8 int32 sums plus the row's and the
// columns' zero-point terms, stored to C (through a buffer when the tile is narrower).
// Included only by this folder's tiles, which share its flags.
#pragma once

#include <immintrin.h>

#include <cstring>

#include "kernels/gemm/i8_gemm.h"

namespace twinrt::kernels {
namespace {

inline void store_i8_tile_row(const I8TileArgs& t, int r, __m256i dots) {
  constexpr int kNr = 8;
  const __m256i adds = _mm256_add_epi32(_mm256_set1_epi32(t.row_add[r]),
                                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.col_add)));
  const __m256i sums = _mm256_add_epi32(dots, adds);
  if (t.col_count == kNr) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(t.c + r * t.ldc), sums);
    return;
  }
  alignas(32) int32_t buf[kNr];
  _mm256_store_si256(reinterpret_cast<__m256i*>(buf), sums);
  std::memcpy(t.c + r * t.ldc, buf, sizeof(int32_t) * static_cast<size_t>(t.col_count));
}

}  // namespace
}  // namespace twinrt::kernels
