// AVX2 8-bit GEMM tile, 6 x 8. Bytes are widened to int16 and multiplied in pairs with
// vpmaddwd into int32, which is exact (|255 * -128 * 2| < 2^31); vpmaddubsw is avoided
// because its int16 sums saturate.
#include <immintrin.h>

#include <cstring>

#include "kernels/gemm/i8_gemm.h"
#include "kernels/x86/avx2/i8_tile_store.h"

namespace twinrt::kernels {
namespace {

constexpr int kMr = 6, kNr = 8;

template <bool Unsigned>
__m256i widen16(__m128i bytes) {
  return Unsigned ? _mm256_cvtepu8_epi16(bytes) : _mm256_cvtepi8_epi16(bytes);
}

// The 4 bytes of one row at one depth group, widened and repeated in every 64-bit lane.
// Unsigned bytes: a broadcast load and one byte shuffle that puts each byte next to a zero
// (2 uops instead of 3: the tile issues more uops than its multipliers need).
template <bool Unsigned>
__m256i broadcast_row(const uint8_t* p) {
  int32_t word;
  std::memcpy(&word, p, 4);
  if constexpr (Unsigned) {
    const __m256i zero_extend = _mm256_setr_epi8(0, -1, 1, -1, 2, -1, 3, -1, 0, -1, 1, -1, 2, -1, 3, -1,  //
                                                 0, -1, 1, -1, 2, -1, 3, -1, 0, -1, 1, -1, 2, -1, 3, -1);
    return _mm256_shuffle_epi8(_mm256_set1_epi32(word), zero_extend);
  } else {
    return _mm256_broadcastq_epi64(_mm_cvtepi8_epi16(_mm_cvtsi32_si128(word)));
  }
}

// acc[r][h] (columns 4h..4h+3 of row r, two partial sums per column: even and odd depth
// pairs) += `groups` depth groups: row r's 4 bytes of group g at rows[r] + g * RowStep, the
// columns' at cols + 32 g.
template <bool RowsU8, int64_t RowStep>
__attribute__((always_inline)) inline void accumulate(__m256i (&acc)[kMr][2], const uint8_t* const* rows, const uint8_t* cols, int64_t groups) {
  for (int64_t g = 0; g < groups; ++g) {
    const uint8_t* c = cols + g * kNr * 4;
    const __m256i c0 = widen16<!RowsU8>(_mm_loadu_si128(reinterpret_cast<const __m128i*>(c)));
    const __m256i c1 = widen16<!RowsU8>(_mm_loadu_si128(reinterpret_cast<const __m128i*>(c + 16)));
    // Unrolled so that the accumulators stay in registers.
#pragma GCC unroll 6
    for (int r = 0; r < kMr; ++r) {
      const __m256i a = broadcast_row<RowsU8>(rows[r] + g * RowStep);
      acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(c0, a));
      acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(c1, a));
    }
  }
}

void store(const I8TileArgs& t, __m256i (&acc)[kMr][2]) {
  // hadd gives columns 0 1 4 5 | 2 3 6 7; the permute puts them in order.
  for (int r = 0; r < t.row_count; ++r)
    store_i8_tile_row(t, r, _mm256_permute4x64_epi64(_mm256_hadd_epi32(acc[r][0], acc[r][1]), 0xd8));
}

template <bool RowsU8>
void tile(const I8TileArgs& t) {
  __m256i acc[kMr][2];
#pragma GCC unroll 6
  for (auto& row : acc) row[0] = row[1] = _mm256_setzero_si256();
  const uint8_t* rows[kMr];
  for (int r = 0; r < kMr; ++r) rows[r] = t.rows + r * 4;
  accumulate<RowsU8, kMr * 4>(acc, rows, t.cols, t.k_groups);
  store(t, acc);
}

// Unpacked unsigned rows through the indirection pointers, tap by tap.
void indirect_tile(const I8TileArgs& t) {
  __m256i acc[kMr][2];
#pragma GCC unroll 6
  for (auto& row : acc) row[0] = row[1] = _mm256_setzero_si256();
  for (int64_t tap = 0; tap < t.taps; ++tap)
    accumulate<true, 4>(acc, t.indirect + tap * kMr, t.cols + tap * t.k_groups * kNr * 4, t.k_groups);
  store(t, acc);
}

// int16 rows through the indirection pointers against int16 column panels in pair order
// (i8_pair_index): a row's depth pair broadcast against one vector of the 8 columns' pairs
// gives each column's whole pair sum, so one accumulator per row and no hadd. The exact
// Winograd convolution's products (kernels/conv/i8_winograd.h): 16 per block and channel
// where the direct tile above does 36 at the same vpmaddwd rate.
void indirect_i16_tile(const I8TileArgs& t) {
  __m256i acc[kMr];
#pragma GCC unroll 6
  for (__m256i& row : acc) row = _mm256_setzero_si256();
  const int16_t* cols = reinterpret_cast<const int16_t*>(t.cols);
  for (int64_t tap = 0; tap < t.taps; ++tap) {
    const int16_t* rows[kMr];
    for (int r = 0; r < kMr; ++r) rows[r] = reinterpret_cast<const int16_t*>(t.indirect[tap * kMr + r]);
    for (int64_t at = 0; at < 4 * t.k_groups; at += 2, cols += 2 * kNr) {
      const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(cols));
#pragma GCC unroll 6
      for (int r = 0; r < kMr; ++r) {
        int32_t pair;
        std::memcpy(&pair, rows[r] + at, 4);
        acc[r] = _mm256_add_epi32(acc[r], _mm256_madd_epi16(c, _mm256_set1_epi32(pair)));
      }
    }
  }
  for (int r = 0; r < t.row_count; ++r) store_i8_tile_row(t, r, acc[r]);
}

}  // namespace

void i8_gemm_6x8_rows_u8__avx2(const I8TileArgs& t) { tile<true>(t); }
void i8_gemm_6x8_rows_s8__avx2(const I8TileArgs& t) { tile<false>(t); }
void i8_gemm_6x8_indirect_u8__avx2(const I8TileArgs& t) { indirect_tile(t); }
void i8_gemm_6x8_indirect_i16__avx2(const I8TileArgs& t) { indirect_i16_tile(t); }

}  // namespace twinrt::kernels
