// AVX2 8-bit GEMM tile, 6 x 8, for when every signed packed value lies in [-64, 64]
// (7-bit weights, checked when the panels are packed: I8Panels::signed_7bit). Then
// vpmaddubsw is exact: each int16 pair sum is at most 2 * 255 * 64 = 32640 in magnitude,
// so it never saturates, and vpmaddwd with ones widens the pairs into exact int32 sums.
// The bytes are used as packed (no widening), which makes this tile about twice as cheap
// per product as the general one; its int32 results are the same.
#include <immintrin.h>

#include <cstring>

#include "kernels/gemm/i8_gemm.h"
#include "kernels/x86/avx2/i8_tile_store.h"

namespace twinrt::kernels {
namespace {

constexpr int kMr = 6, kNr = 8;

__m256i broadcast4(const uint8_t* p) {
  int32_t word;
  std::memcpy(&word, p, 4);
  return _mm256_set1_epi32(word);
}

// Sum of the 4 products of each 32-bit lane, exact under the 7-bit condition above.
__m256i dot4(__m256i unsigned_bytes, __m256i signed_bytes) {
  return _mm256_madd_epi16(_mm256_maddubs_epi16(unsigned_bytes, signed_bytes), _mm256_set1_epi16(1));
}

// acc[r] (columns 0..7 of row r) += `groups` depth groups: row r's 4 bytes of group g at
// rows[r] + g * RowStep, the columns' at cols + 32 g.
template <bool RowsU8, int64_t RowStep>
__attribute__((always_inline)) inline void accumulate(__m256i (&acc)[kMr], const uint8_t* const* rows, const uint8_t* cols, int64_t groups) {
  for (int64_t g = 0; g < groups; ++g) {
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(cols + g * kNr * 4));
#pragma GCC unroll 6
    for (int r = 0; r < kMr; ++r) {
      const __m256i row = broadcast4(rows[r] + g * RowStep);
      acc[r] = _mm256_add_epi32(acc[r], RowsU8 ? dot4(row, c) : dot4(c, row));
    }
  }
}

template <bool RowsU8>
void tile(const I8TileArgs& t) {
  __m256i acc[kMr];
#pragma GCC unroll 6
  for (auto& a : acc) a = _mm256_setzero_si256();
  const uint8_t* rows[kMr];
  for (int r = 0; r < kMr; ++r) rows[r] = t.rows + r * 4;
  accumulate<RowsU8, kMr * 4>(acc, rows, t.cols, t.k_groups);
  for (int r = 0; r < t.row_count; ++r) store_i8_tile_row(t, r, acc[r]);
}

// Unpacked unsigned rows through the indirection pointers, tap by tap.
void indirect_tile(const I8TileArgs& t) {
  __m256i acc[kMr];
#pragma GCC unroll 6
  for (auto& a : acc) a = _mm256_setzero_si256();
  for (int64_t tap = 0; tap < t.taps; ++tap)
    accumulate<true, 4>(acc, t.indirect + tap * kMr, t.cols + tap * t.k_groups * kNr * 4, t.k_groups);
  for (int r = 0; r < t.row_count; ++r) store_i8_tile_row(t, r, acc[r]);
}

}  // namespace

void i8_gemm_6x8_rows_u8_7bit__avx2(const I8TileArgs& t) { tile<true>(t); }
void i8_gemm_6x8_rows_s8_7bit__avx2(const I8TileArgs& t) { tile<false>(t); }
void i8_gemm_6x8_indirect_u8_7bit__avx2(const I8TileArgs& t) { indirect_tile(t); }

}  // namespace twinrt::kernels
