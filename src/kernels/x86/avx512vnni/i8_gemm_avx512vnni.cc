// AVX-512 VNNI 8-bit GEMM tiles: 6 x 64 on the NHWC convolutions' indirect rows, 6 x 32 on
// packed row panels. vpdpbusd multiplies uint8 by int8 and adds each group of 4 products
// into an int32 lane without intermediate saturation. The Xeon this was tuned on issues two
// per cycle (24 independent ones in a loop: 5.6 G/s at about 2.8 GHz); the 6 x 64 tile's 24
// accumulators take 4 column loads and 6 row broadcasts per 24 products, and measured 3%
// faster than 6 x 32 on ResNet-50 int8, its 1x1 and 3x3 layers alike. A partial last
// column panel runs only the vectors it needs (1 to Nr / 16 of 16 columns).
#include <immintrin.h>

#include <cstring>

#include "kernels/gemm/i8_gemm.h"
#include "kernels/x86/avx512vnni/u8_store_64.h"

namespace twinrt::kernels {
namespace {

constexpr int kMr = 6;
// How far ahead the column panel (weights, from memory in a model) is prefetched, in depth
// groups.
constexpr int64_t kPrefetchGroups = 8;

// acc += dot4(u8 bytes of u, s8 bytes of s) per int32 lane. Inline assembly because GCC 12
// copies the accumulator around each _mm512_dpbusd_epi32 (two extra moves per product).
inline void dpbusd(__m512i& acc, __m512i u, __m512i s) { __asm__("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(u), "v"(s)); }

// requantize_u8's result (kernels/portable/i8_requantize.inc: round_to) for 16 sums, before
// the final clamp to 0-255: float(v) * m, at most 2^22, rounded half to even by vcvtps2dq
// (the default rounding mode, which round_to's add and subtract of 1.5 * 2^23 also assume),
// plus the zero point. Out of int32 range and NaN (min returns its second operand, the NaN)
// convert to INT32_MIN and end at 0 after the clamp, where round_to's clamp to -2^22 and its
// NaN rule also end; round_to's lower clamp is not needed.
inline __m512i requantize_unclamped(__m512i v, __m512 m, __m512i zero) {
  const __m512 f = _mm512_min_ps(_mm512_set1_ps(4194304.0f), _mm512_mul_ps(_mm512_cvtepi32_ps(v), m));
  return _mm512_add_epi32(_mm512_cvtps_epi32(f), zero);
}

// Negatives to 0; the caller's unsigned-saturating narrowing store (vpmovusdb) clamps the
// rest to 255.
inline __m512i requantize_u8(__m512i v, __m512 m, __m512i zero) {
  return _mm512_max_epi32(requantize_unclamped(v, m, zero), _mm512_setzero_si512());
}

// The sums of `taps` steps of t.k_groups depth groups each, stored with the row and column
// terms, or requantized to uint8 when t.y is set. row_bytes(tap, r) is row r's first group
// of that tap (its groups 4 bytes apart for the indirect rows, kMr * 4 for a packed panel:
// `row_step`); the column panel holds the taps' groups one after the other. Rows is
// t.row_count and V the column vectors t.col_count needs: a partial tile costs its part.
template <int Nr, int Rows, int V, bool RowsU8, class RowBytes>
__attribute__((always_inline)) inline void tile(const I8TileArgs& t, int64_t taps, int64_t row_step, RowBytes row_bytes) {
  // Twenty-four named accumulators, a<row><vector>, and every vector by name: with arrays,
  // structs or loops over the vectors GCC kept them on the stack around the asm.
  const __m512i z = _mm512_setzero_si512();
  __m512i a00 = z, a01 = z, a02 = z, a03 = z, a10 = z, a11 = z, a12 = z, a13 = z, a20 = z, a21 = z, a22 = z, a23 = z,
          a30 = z, a31 = z, a32 = z, a33 = z, a40 = z, a41 = z, a42 = z, a43 = z, a50 = z, a51 = z, a52 = z, a53 = z;
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
    for (int64_t g = 0; g < t.k_groups; ++g, cols += Nr * 4) {
      const auto column = [&](int v) {
        _mm_prefetch(reinterpret_cast<const char*>(cols + kPrefetchGroups * Nr * 4 + 64 * v), _MM_HINT_T0);
        return _mm512_loadu_si512(cols + 64 * v);
      };
      const __m512i c0 = column(0), c1 = V > 1 ? column(1) : z, c2 = V > 2 ? column(2) : z, c3 = V > 3 ? column(3) : z;
      const auto row = [&](int r, __m512i& x0, __m512i& x1, __m512i& x2, __m512i& x3) {
        int32_t word;
        std::memcpy(&word, rows[r] + g * row_step, 4);
        const __m512i a = _mm512_set1_epi32(word);
        const auto step = [&](__m512i& acc, __m512i col) {
          if (RowsU8) dpbusd(acc, a, col);
          else dpbusd(acc, col, a);
        };
        step(x0, c0);
        if constexpr (V > 1) step(x1, c1);
        if constexpr (V > 2) step(x2, c2);
        if constexpr (V > 3) step(x3, c3);
      };
      row(0, a00, a01, a02, a03);
      if constexpr (Rows > 1) row(1, a10, a11, a12, a13);
      if constexpr (Rows > 2) row(2, a20, a21, a22, a23);
      if constexpr (Rows > 3) row(3, a30, a31, a32, a33);
      if constexpr (Rows > 4) row(4, a40, a41, a42, a43);
      if constexpr (Rows > 5) row(5, a50, a51, a52, a53);
    }
  }
  // Everything the stores read, in locals first: a uint8_t store may alias any memory, so
  // GCC reloaded t's fields, the multipliers and the constants after every row.
  uint8_t* const y = t.y;
  const int64_t ldy = t.ldy, ldc = t.ldc;
  int32_t* const c = t.c;
  const int32_t* const row_add = t.row_add;
  const __m512i zero = _mm512_set1_epi32(t.y_zero);
  // Column vector v's lanes inside the tile, its column terms and multipliers.
  const auto lanes = [&](int v) {
    const int n = t.col_count - 16 * v;
    return static_cast<__mmask16>(n >= 16 ? 0xffff : n > 0 ? (1u << n) - 1 : 0);
  };
  const __mmask16 k0 = lanes(0), k1 = lanes(1), k2 = lanes(2), k3 = lanes(3);
  const auto col = [&](__mmask16 k, int v) { return _mm512_maskz_loadu_epi32(k, t.col_add + 16 * v); };
  const auto mult = [&](__mmask16 k, int v) { return y ? _mm512_maskz_loadu_ps(k, t.y_multiplier + 16 * v) : _mm512_setzero_ps(); };
  const __m512i col0 = col(k0, 0), col1 = col(k1, 1), col2 = col(k2, 2), col3 = col(k3, 3);
  const __m512 m0 = mult(k0, 0), m1 = mult(k1, 1), m2 = mult(k2, 2), m3 = mult(k3, 3);
  // A whole row of 64 columns: one store (u8_store_64.h; at 64 deep, 1x1 convolutions over
  // 64 channels, the epilogue is about a third of the tile's instructions).
  const bool whole_row = V == 4 && t.col_count == 64;
  const auto store = [&](int r, __m512i x0, __m512i x1, __m512i x2, __m512i x3) __attribute__((always_inline)) {
    const __m512i row = _mm512_set1_epi32(row_add[r]);
    if constexpr (V == 4) {
      if (y && whole_row) {
        const auto q = [&](__m512i sum, __m512i col_v, __m512 m) __attribute__((always_inline)) {
          return requantize_unclamped(_mm512_add_epi32(sum, _mm512_add_epi32(row, col_v)), m, zero);
        };
        store_u8_64(y + r * ldy, q(x0, col0, m0), q(x1, col1, m1), q(x2, col2, m2), q(x3, col3, m3));
        return;
      }
    }
    const auto one = [&](int v, __mmask16 k, __m512i sum, __m512i col_v, __m512 m) __attribute__((always_inline)) {
      const __m512i total = _mm512_add_epi32(sum, _mm512_add_epi32(row, col_v));
      if (y) _mm512_mask_cvtusepi32_storeu_epi8(y + r * ldy + 16 * v, k, requantize_u8(total, m, zero));
      else _mm512_mask_storeu_epi32(c + r * ldc + 16 * v, k, total);
    };
    one(0, k0, x0, col0, m0);
    if constexpr (V > 1) one(1, k1, x1, col1, m1);
    if constexpr (V > 2) one(2, k2, x2, col2, m2);
    if constexpr (V > 3) one(3, k3, x3, col3, m3);
  };
  store(0, a00, a01, a02, a03);
  if constexpr (Rows > 1) store(1, a10, a11, a12, a13);
  if constexpr (Rows > 2) store(2, a20, a21, a22, a23);
  if constexpr (Rows > 3) store(3, a30, a31, a32, a33);
  if constexpr (Rows > 4) store(4, a40, a41, a42, a43);
  if constexpr (Rows > 5) store(5, a50, a51, a52, a53);
}

// Calls f.template operator()<R, V>() with R = t.row_count (1 to kMr) and V the column
// vectors t.col_count covers (1 to Nr / 16).
template <int Nr, class F>
void with_tile_shape(const I8TileArgs& t, F&& f) {
  const auto rows = [&]<int V>() {
    switch (t.row_count) {
      case 1: return f.template operator()<1, V>();
      case 2: return f.template operator()<2, V>();
      case 3: return f.template operator()<3, V>();
      case 4: return f.template operator()<4, V>();
      case 5: return f.template operator()<5, V>();
      default: return f.template operator()<kMr, V>();
    }
  };
  if (t.col_count <= 16) return rows.template operator()<1>();
  if (Nr == 32 || t.col_count <= 32) return rows.template operator()<2>();
  if (t.col_count <= 48) return rows.template operator()<3>();
  return rows.template operator()<4>();
}

template <int Nr, bool RowsU8>
void packed_rows_tile(const I8TileArgs& t) {
  with_tile_shape<Nr>(t, [&]<int R, int V>() {
    tile<Nr, R, V, RowsU8>(t, 1, kMr * 4, [&](int64_t, int r) { return t.rows + r * 4; });
  });
}

}  // namespace

void i8_gemm_6x32_rows_u8__avx512vnni(const I8TileArgs& t) { packed_rows_tile<32, true>(t); }
void i8_gemm_6x32_rows_s8__avx512vnni(const I8TileArgs& t) { packed_rows_tile<32, false>(t); }
void i8_gemm_6x64_indirect_u8__avx512vnni(const I8TileArgs& t) {
  with_tile_shape<64>(t, [&]<int R, int V>() {
    tile<64, R, V, true>(t, t.taps, 4, [&](int64_t tap, int r) { return t.indirect[tap * kMr + r]; });
  });
}

}  // namespace twinrt::kernels
