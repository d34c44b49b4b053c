// The WebAssembly SIMD128 8-bit tile on packed panels (QLinearConv's im2col product,
// QLinearMatMul, MatMulInteger, QGemm), 2 x 8.
//
// A group's 4 depths of 8 columns are widened to int16 (4 vectors of 2 columns x 4 depths),
// a row's 4 depths are splat twice, and i32x4.dot_i16x8_s adds depth pairs into int32 lanes
// (exact: |255 * -128 * 2| < 2^31): lanes 0-1 are partial sums of one column, 2-3 of the
// next, folded together when the tile is stored. Each row holds 4 accumulators; with the 4
// column vectors, 2 rows are what fits the 15 vector registers V8 allocates from
// (kernels/wasm/f32_gemm_wasm.cc). At 6 rows (the portable tile's shape) V8 kept most of
// the 24 accumulators in memory: ResNet-50's int8 stem ran at a quarter of the NHWC tile's
// rate.
// Compiled only by emscripten (CMakeLists.txt); SIMD128 builds only.
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include "kernels/gemm/i8_gemm.h"
#include "kernels/wasm/i8_lanes_wasm.h"

namespace twinrt::kernels {
namespace {

constexpr int kMr = 2, kNr = 8;

template <bool Unsigned>
v128_t widen_low(v128_t bytes) {
  return Unsigned ? wasm_u16x8_extend_low_u8x16(bytes) : wasm_i16x8_extend_low_i8x16(bytes);
}
template <bool Unsigned>
v128_t widen_high(v128_t bytes) {
  return Unsigned ? wasm_u16x8_extend_high_u8x16(bytes) : wasm_i16x8_extend_high_i8x16(bytes);
}

// acc[h] (columns 2h and 2h + 1, depth pairs 0-1 and 2-3 apart) += the row's 4 depths at
// `row` times the group's columns c.
template <bool RowsU8>
inline void madd_row(v128_t (&acc)[4], const v128_t (&c)[4], const uint8_t* row) {
  const v128_t a = widen_low<RowsU8>(wasm_v128_load32_splat(row));  // a0..a3 twice
  for (int h = 0; h < 4; ++h) acc[h] = wasm_i32x4_add(acc[h], wasm_i32x4_dot_i16x8(c[h], a));
}

// Row r's 8 sums: the two partial sums of each column added, plus the row and column terms
// (col_add has kNr entries).
void store_row(const I8TileArgs& t, int r, const v128_t (&acc)[4]) {
  const v128_t row_add = wasm_i32x4_splat(t.row_add[r]);
  v128_t sums[2];
  for (int h = 0; h < 2; ++h) {
    const v128_t x = acc[2 * h], y = acc[2 * h + 1];
    const v128_t pairs = wasm_i32x4_add(wasm_i32x4_shuffle(x, y, 0, 2, 4, 6), wasm_i32x4_shuffle(x, y, 1, 3, 5, 7));
    sums[h] = wasm_i32x4_add(wasm_i32x4_add(pairs, row_add), wasm_v128_load(t.col_add + 4 * h));
  }
  store_sums(t.c + r * t.ldc, sums, t.col_count);
}

template <bool RowsU8>
void tile(const I8TileArgs& t) {
  // Two named rows of accumulators: arrays indexed by row went through linear memory.
  v128_t acc0[4], acc1[4];
  for (int h = 0; h < 4; ++h) acc0[h] = acc1[h] = wasm_i32x4_splat(0);
  const uint8_t* rows = t.rows;
  const uint8_t* cols = t.cols;
  for (int64_t g = 0; g < t.k_groups; ++g, rows += kMr * 4, cols += kNr * 4) {
    const v128_t lo = wasm_v128_load(cols), hi = wasm_v128_load(cols + 16);
    const v128_t c[4] = {widen_low<!RowsU8>(lo), widen_high<!RowsU8>(lo), widen_low<!RowsU8>(hi),
                         widen_high<!RowsU8>(hi)};
    madd_row<RowsU8>(acc0, c, rows);
    madd_row<RowsU8>(acc1, c, rows + 4);
  }
  store_row(t, 0, acc0);
  if (t.row_count > 1) store_row(t, 1, acc1);
}

}  // namespace

void i8_gemm_2x8_rows_u8__wasmsimd(const I8TileArgs& t) { tile<true>(t); }
void i8_gemm_2x8_rows_s8__wasmsimd(const I8TileArgs& t) { tile<false>(t); }

}  // namespace twinrt::kernels
#endif
