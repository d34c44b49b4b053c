// The portable tier's 8-bit GEMM tile, 6 x 8. In WebAssembly SIMD128 builds: bytes widened
// to int16 and multiplied in pairs into int32 lanes (i32x4.dot_i16x8_s, exact, no
// saturation), the same scheme as the AVX2 tile. Elsewhere: plain int32 loops that the
// compiler may vectorize (SSE2 on x86-64). Products and sums are exact; uint32 sums wrap
// like int32 hardware.
#include <cstdint>

#include "kernels/gemm/i8_gemm.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace twinrt::kernels {
namespace {

constexpr int kMr = 6, kNr = 8;

#if defined(__wasm_simd128__)

template <bool Unsigned>
v128_t widen_low(v128_t bytes) {
  return Unsigned ? wasm_u16x8_extend_low_u8x16(bytes) : wasm_i16x8_extend_low_i8x16(bytes);
}
template <bool Unsigned>
v128_t widen_high(v128_t bytes) {
  return Unsigned ? wasm_u16x8_extend_high_u8x16(bytes) : wasm_i16x8_extend_high_i8x16(bytes);
}

// acc[r][h] (columns 2h and 2h + 1 of row r, two partial sums each: depth pairs 0-1 and
// 2-3) += `groups` depth groups: row r's 4 bytes of group g at rows[r] + g * row_step.
template <bool RowsU8>
void accumulate(v128_t (&acc)[kMr][4], const uint8_t* const* rows, int64_t row_step, const uint8_t* cols, int64_t groups) {
  for (int64_t g = 0; g < groups; ++g) {
    const uint8_t* cg = cols + g * kNr * 4;
    const v128_t lo = wasm_v128_load(cg), hi = wasm_v128_load(cg + 16);
    const v128_t c[4] = {widen_low<!RowsU8>(lo), widen_high<!RowsU8>(lo), widen_low<!RowsU8>(hi),
                         widen_high<!RowsU8>(hi)};
    for (int r = 0; r < kMr; ++r) {
      const v128_t a = widen_low<RowsU8>(wasm_v128_load32_splat(rows[r] + g * row_step));  // a0..a3 twice
      for (int h = 0; h < 4; ++h) acc[r][h] = wasm_i32x4_add(acc[r][h], wasm_i32x4_dot_i16x8(c[h], a));
    }
  }
}

void store(const I8TileArgs& t, const v128_t (&acc)[kMr][4]) {
  for (int r = 0; r < t.row_count; ++r) {
    int32_t out[kNr];
    for (int h = 0; h < 2; ++h) {
      const v128_t x = acc[r][2 * h], y = acc[r][2 * h + 1];
      const v128_t sums = wasm_i32x4_add(wasm_i32x4_shuffle(x, y, 0, 2, 4, 6), wasm_i32x4_shuffle(x, y, 1, 3, 5, 7));
      wasm_v128_store(out + 4 * h, sums);
    }
    for (int j = 0; j < t.col_count; ++j)
      t.c[r * t.ldc + j] = static_cast<int32_t>(static_cast<uint32_t>(out[j]) + static_cast<uint32_t>(t.row_add[r]) +
                                                static_cast<uint32_t>(t.col_add[j]));
  }
}

using Acc = v128_t[kMr][4];
void clear(Acc& acc) {
  for (auto& row : acc)
    for (v128_t& v : row) v = wasm_i32x4_splat(0);
}

#else

template <bool RowsU8>
int32_t row_value(uint8_t v) {
  return RowsU8 ? int32_t{v} : int32_t{static_cast<int8_t>(v)};
}

// acc[r][j] += `groups` depth groups: row r's 4 bytes of group g at rows[r] + g * row_step.
template <bool RowsU8>
void accumulate(uint32_t (&acc)[kMr][kNr], const uint8_t* const* rows, int64_t row_step, const uint8_t* cols,
                int64_t groups) {
  for (int64_t g = 0; g < groups; ++g) {
    const uint8_t* cg = cols + g * kNr * 4;
    for (int r = 0; r < kMr; ++r)
      for (int q = 0; q < 4; ++q) {
        const int32_t a = row_value<RowsU8>(rows[r][g * row_step + q]);
        for (int j = 0; j < kNr; ++j) acc[r][j] += static_cast<uint32_t>(a * row_value<!RowsU8>(cg[j * 4 + q]));
      }
  }
}

void store(const I8TileArgs& t, const uint32_t (&acc)[kMr][kNr]) {
  for (int r = 0; r < t.row_count; ++r)
    for (int j = 0; j < t.col_count; ++j)
      t.c[r * t.ldc + j] =
          static_cast<int32_t>(acc[r][j] + static_cast<uint32_t>(t.row_add[r]) + static_cast<uint32_t>(t.col_add[j]));
}

using Acc = uint32_t[kMr][kNr];
void clear(Acc& acc) {
  for (auto& row : acc)
    for (uint32_t& v : row) v = 0;
}

#endif

template <bool RowsU8>
void tile(const I8TileArgs& t) {
  Acc acc;
  clear(acc);
  const uint8_t* rows[kMr];
  for (int r = 0; r < kMr; ++r) rows[r] = t.rows + r * 4;
  accumulate<RowsU8>(acc, rows, kMr * 4, t.cols, t.k_groups);
  store(t, acc);
}

// Unpacked unsigned rows through the indirection pointers, tap by tap.
void indirect_tile(const I8TileArgs& t) {
  Acc acc;
  clear(acc);
  for (int64_t tap = 0; tap < t.taps; ++tap)
    accumulate<true>(acc, t.indirect + tap * kMr, 4, t.cols + tap * t.k_groups * kNr * 4, t.k_groups);
  store(t, acc);
}

}  // namespace

void i8_gemm_6x8_rows_u8__scalar(const I8TileArgs& t) { tile<true>(t); }
void i8_gemm_6x8_rows_s8__scalar(const I8TileArgs& t) { tile<false>(t); }
void i8_gemm_6x8_indirect_u8__scalar(const I8TileArgs& t) { indirect_tile(t); }

}  // namespace twinrt::kernels
