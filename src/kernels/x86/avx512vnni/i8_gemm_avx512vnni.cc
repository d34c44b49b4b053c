// AVX-512 VNNI 8-bit GEMM tiles, 6 x 32: vpdpbusd multiplies uint8 by int8 and adds each
// group of 4 products into an int32 lane without intermediate saturation.
#include <immintrin.h>

#include <cstring>

#include "kernels/gemm/i8_gemm.h"

namespace twinrt::kernels {
namespace {

constexpr int kMr = 6, kNr = 32;
// How far ahead the column panel (weights, from memory in a model) is prefetched: 8 depth
// groups.
constexpr int64_t kPrefetchBytes = 8 * kNr * 4;

// acc += dot4(u8 bytes of u, s8 bytes of s) per int32 lane. Inline assembly because GCC 12
// copies the accumulator around each _mm512_dpbusd_epi32 (two extra moves per product).
inline void dpbusd(__m512i& acc, __m512i u, __m512i s) { __asm__("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(u), "v"(s)); }

// requantize_u8's result (kernels/portable/i8_requantize.inc: round_to) for 16 sums, before
// the final saturation: float(v) * m, at most 2^22, rounded half to even by vcvtps2dq (the
// default rounding mode, which round_to's add and subtract of 1.5 * 2^23 also assume),
// plus the zero point, negatives to 0; the caller's unsigned-saturating narrowing store
// (vpmovusdb) clamps the rest to 255. Out of int32 range and NaN (min returns its second
// operand, the NaN) convert to INT32_MIN and end at 0, where round_to's clamp to -2^22 and
// its NaN rule also end; round_to's lower clamp is not needed.
inline __m512i requantize_u8(__m512i v, __m512 m, __m512i zero) {
  const __m512 f = _mm512_min_ps(_mm512_set1_ps(4194304.0f), _mm512_mul_ps(_mm512_cvtepi32_ps(v), m));
  return _mm512_max_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(f), zero), _mm512_setzero_si512());
}

// The sums of `taps` steps of t.k_groups depth groups each, stored with the row and column
// terms, or requantized to uint8 when t.y is set. row_bytes(tap, r) is row r's first group
// of that tap (its groups 4 bytes apart for the indirect rows, kMr * 4 for a packed panel:
// `row_step`); the column panel holds the taps' groups one after the other. Rows is
// t.row_count: a partial last panel of rows costs its rows, not the whole tile's.
template <int Rows, bool RowsU8, class RowBytes>
__attribute__((always_inline)) inline void tile(const I8TileArgs& t, int64_t taps, int64_t row_step, RowBytes row_bytes) {
  // Twelve named accumulators (an array would live on the stack around the asm).
  __m512i a00 = _mm512_setzero_si512(), a01 = a00, a10 = a00, a11 = a00, a20 = a00, a21 = a00, a30 = a00,
          a31 = a00, a40 = a00, a41 = a00, a50 = a00, a51 = a00;
  const uint8_t* cols = t.cols;
  for (int64_t tap = 0; tap < taps; ++tap) {
    const uint8_t* rows[Rows];
    for (int r = 0; r < Rows; ++r) {
      // Through a register: GCC otherwise copies the pointers with vector moves into a
      // stack array and reloads them one by one (a store-forwarding stall per tap).
      const uint8_t* p = row_bytes(tap, r);
      __asm__("" : "+r"(p));
      rows[r] = p;
    }
    for (int64_t g = 0; g < t.k_groups; ++g, cols += kNr * 4) {
      _mm_prefetch(reinterpret_cast<const char*>(cols + kPrefetchBytes), _MM_HINT_T0);
      _mm_prefetch(reinterpret_cast<const char*>(cols + kPrefetchBytes + 64), _MM_HINT_T0);
      const __m512i c0 = _mm512_loadu_si512(cols);
      const __m512i c1 = _mm512_loadu_si512(cols + 64);
      auto row = [&](int r, __m512i& x0, __m512i& x1) {
        int32_t word;
        std::memcpy(&word, rows[r] + g * row_step, 4);
        const __m512i a = _mm512_set1_epi32(word);
        if (RowsU8) {
          dpbusd(x0, a, c0);
          dpbusd(x1, a, c1);
        } else {
          dpbusd(x0, c0, a);
          dpbusd(x1, c1, a);
        }
      };
      row(0, a00, a01);
      if constexpr (Rows > 1) row(1, a10, a11);
      if constexpr (Rows > 2) row(2, a20, a21);
      if constexpr (Rows > 3) row(3, a30, a31);
      if constexpr (Rows > 4) row(4, a40, a41);
      if constexpr (Rows > 5) row(5, a50, a51);
    }
  }
  const int lo = t.col_count < 16 ? t.col_count : 16, hi = t.col_count - lo;
  const __mmask16 lo_mask = static_cast<__mmask16>((1u << lo) - 1), hi_mask = static_cast<__mmask16>((1u << hi) - 1);
  const __m512i col0 = _mm512_loadu_si512(t.col_add), col1 = _mm512_loadu_si512(t.col_add + 16);
  // Everything the stores read, in locals first: a uint8_t store may alias any memory, so
  // GCC reloaded t's fields, the multipliers and the constants after every row.
  uint8_t* const y = t.y;
  const int64_t ldy = t.ldy, ldc = t.ldc;
  int32_t* const c = t.c;
  const int32_t* const row_add = t.row_add;
  __m512 m0 = _mm512_setzero_ps(), m1 = m0;
  const __m512i zero = _mm512_set1_epi32(t.y_zero);
  if (y) {
    m0 = _mm512_maskz_loadu_ps(lo_mask, t.y_multiplier);
    m1 = _mm512_maskz_loadu_ps(hi_mask, t.y_multiplier + 16);  // nothing read where hi is 0
  }
  // Row by row with the named accumulators (an array indexed at run time would go through
  // the stack).
  const auto store = [&](int r, __m512i x0, __m512i x1) {
    const __m512i row = _mm512_set1_epi32(row_add[r]);
    x0 = _mm512_add_epi32(x0, _mm512_add_epi32(row, col0));
    x1 = _mm512_add_epi32(x1, _mm512_add_epi32(row, col1));
    if (y) {
      _mm512_mask_cvtusepi32_storeu_epi8(y + r * ldy, lo_mask, requantize_u8(x0, m0, zero));
      if (hi > 0) _mm512_mask_cvtusepi32_storeu_epi8(y + r * ldy + 16, hi_mask, requantize_u8(x1, m1, zero));
    } else {
      _mm512_mask_storeu_epi32(c + r * ldc, lo_mask, x0);
      if (hi > 0) _mm512_mask_storeu_epi32(c + r * ldc + 16, hi_mask, x1);
    }
  };
  store(0, a00, a01);
  if constexpr (Rows > 1) store(1, a10, a11);
  if constexpr (Rows > 2) store(2, a20, a21);
  if constexpr (Rows > 3) store(3, a30, a31);
  if constexpr (Rows > 4) store(4, a40, a41);
  if constexpr (Rows > 5) store(5, a50, a51);
}

// Calls f.template operator()<R>() with R = t.row_count (1 to kMr).
template <class F>
void with_row_count(const I8TileArgs& t, F&& f) {
  switch (t.row_count) {
    case 1: return f.template operator()<1>();
    case 2: return f.template operator()<2>();
    case 3: return f.template operator()<3>();
    case 4: return f.template operator()<4>();
    case 5: return f.template operator()<5>();
    default: return f.template operator()<kMr>();
  }
}

template <bool RowsU8>
void packed_rows_tile(const I8TileArgs& t) {
  with_row_count(t, [&]<int R>() { tile<R, RowsU8>(t, 1, kMr * 4, [&](int64_t, int r) { return t.rows + r * 4; }); });
}

}  // namespace

void i8_gemm_6x32_rows_u8__avx512vnni(const I8TileArgs& t) { packed_rows_tile<true>(t); }
void i8_gemm_6x32_rows_s8__avx512vnni(const I8TileArgs& t) { packed_rows_tile<false>(t); }
void i8_gemm_6x32_indirect_u8__avx512vnni(const I8TileArgs& t) {
  with_row_count(t, [&]<int R>() {
    tile<R, true>(t, t.taps, 4, [&](int64_t tap, int r) { return t.indirect[tap * kMr + r]; });
  });
}

}  // namespace twinrt::kernels
