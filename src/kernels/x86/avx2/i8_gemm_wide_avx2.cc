// AVX2 8-bit GEMM tile, 6 x 8, for unsigned row panels already widened to 16 bits
// (i8_widen_rows: the per-call activation panels of MatMulInteger) and signed byte column
// panels. Arithmetic as in i8_gemm_avx2.cc (vpmaddwd on int16, exact); widening the rows
// once per call instead of once per tile takes the byte shuffle out of the loop, and with
// it the register that held its pattern: 12 accumulators, 2 column and 1 row register fit
// in the 16 ymm registers, where the byte-row tile spills accumulators to the stack.
#include <immintrin.h>

#include <cstring>

#include "kernels/gemm/i8_gemm.h"
#include "kernels/x86/avx2/i8_tile_store.h"

namespace twinrt::kernels {
namespace {

constexpr int kMr = 6, kNr = 8;

// lo/hi (columns 0-3 / 4-7 of one row, two partial sums per column: even and odd depth
// pairs) += the row's 4 depths (int16 at `row`) times the group's columns c0/c1.
__attribute__((always_inline)) inline void madd_row(__m256i& lo, __m256i& hi, __m256i c0, __m256i c1, const uint8_t* row) {
  int64_t four;  // the row's 4 depths as int16, repeated in every 64-bit lane
  std::memcpy(&four, row, 8);
  const __m256i a = _mm256_set1_epi64x(four);
  lo = _mm256_add_epi32(lo, _mm256_madd_epi16(c0, a));
  hi = _mm256_add_epi32(hi, _mm256_madd_epi16(c1, a));
  // Pins the sums to registers here: without it GCC hoists the 6 rows' broadcasts and
  // products together and spills half of the 12 accumulators to the stack.
  __asm__("" : "+x"(lo), "+x"(hi));
}

__m256i row_sums(__m256i lo, __m256i hi) {
  // hadd gives columns 0 1 4 5 | 2 3 6 7; the permute puts them in order.
  return _mm256_permute4x64_epi64(_mm256_hadd_epi32(lo, hi), 0xd8);
}

}  // namespace

void i8_gemm_6x8_rows_u16__avx2(const I8TileArgs& t) {
  __m256i l0 = _mm256_setzero_si256(), h0 = l0, l1 = l0, h1 = l0, l2 = l0, h2 = l0, l3 = l0, h3 = l0, l4 = l0,
          h4 = l0, l5 = l0, h5 = l0;
  const uint8_t* rows = t.rows;
  const uint8_t* cols = t.cols;
  for (int64_t g = 0; g < t.k_groups; ++g, rows += kMr * 8, cols += kNr * 4) {
    const __m256i c0 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(cols)));
    const __m256i c1 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(cols + 16)));
    madd_row(l0, h0, c0, c1, rows);
    madd_row(l1, h1, c0, c1, rows + 8);
    madd_row(l2, h2, c0, c1, rows + 16);
    madd_row(l3, h3, c0, c1, rows + 24);
    madd_row(l4, h4, c0, c1, rows + 32);
    madd_row(l5, h5, c0, c1, rows + 40);
  }
  const __m256i sums[kMr] = {row_sums(l0, h0), row_sums(l1, h1), row_sums(l2, h2),
                             row_sums(l3, h3), row_sums(l4, h4), row_sums(l5, h5)};
  for (int r = 0; r < t.row_count; ++r) store_i8_tile_row(t, r, sums[r]);
}

}  // namespace twinrt::kernels
