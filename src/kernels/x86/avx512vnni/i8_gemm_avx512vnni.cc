// AVX-512 VNNI 8-bit GEMM tile, 6 x 32: vpdpbusd multiplies uint8 by int8 and adds each
// group of 4 products into an int32 lane without intermediate saturation.
#include <immintrin.h>

#include <cstring>

#include "kernels/gemm/i8_gemm.h"

namespace twinrt::kernels {
namespace {

constexpr int kMr = 6, kNr = 32;

template <bool RowsU8>
void tile(const I8TileArgs& t) {
  __m512i acc[kMr][2];
#pragma GCC unroll 6
  for (auto& row : acc) row[0] = row[1] = _mm512_setzero_si512();
  for (int64_t g = 0; g < t.k_groups; ++g) {
    const uint8_t* cols = t.cols + g * kNr * 4;
    const __m512i c0 = _mm512_loadu_si512(cols);
    const __m512i c1 = _mm512_loadu_si512(cols + 64);
    const uint8_t* rows = t.rows + g * kMr * 4;
    // Unrolled so that the accumulators stay in registers.
#pragma GCC unroll 6
    for (int r = 0; r < kMr; ++r) {
      int32_t word;
      std::memcpy(&word, rows + r * 4, 4);
      const __m512i a = _mm512_set1_epi32(word);
      if (RowsU8) {
        acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], a, c0);
        acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], a, c1);
      } else {
        acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], c0, a);
        acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], c1, a);
      }
    }
  }
  const int lo = t.col_count < 16 ? t.col_count : 16, hi = t.col_count - lo;
  const __mmask16 lo_mask = static_cast<__mmask16>((1u << lo) - 1), hi_mask = static_cast<__mmask16>((1u << hi) - 1);
  for (int r = 0; r < t.row_count; ++r) {
    _mm512_mask_storeu_epi32(t.c + r * t.ldc, lo_mask, acc[r][0]);
    if (hi > 0) _mm512_mask_storeu_epi32(t.c + r * t.ldc + 16, hi_mask, acc[r][1]);
  }
}

}  // namespace

void i8_gemm_6x32_rows_u8__avx512vnni(const I8TileArgs& t) { tile<true>(t); }
void i8_gemm_6x32_rows_s8__avx512vnni(const I8TileArgs& t) { tile<false>(t); }

}  // namespace twinrt::kernels
