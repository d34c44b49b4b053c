// The WebAssembly SIMD128 8-bit tile of the NHWC convolution (ops/quant/conv_nhwc.h), 4 x 8.
//
// i32x4.dot_i16x8_s multiplies 8 int16 pairs and adds each pair into an int32 lane (exact:
// |255 * -128 * 2| < 2^31). The portable tile (portable/i8_gemm_scalar.cc) broadcasts a row's
// 4 depths against 2 columns x 4 depths, so each dot yields partial sums of 2 columns and a
// 6 x 8 tile holds 24 accumulators, far more than the 15 vector registers V8 allocates from
// (kernels/wasm/f32_gemm_wasm.cc). Here a row's depth pair (d, d + 1) is broadcast against
// 4 columns' pairs, so each dot adds to 4 whole columns: 2 accumulators per row of 8 columns.
// 4 rows keep 8 accumulators, 2 column vectors and 1 row vector live.
//
// The columns (weights) are widened to int16 and put in that pair order once, when the
// session is created (i8_arrange_pairs__wasmsimd). The rows are the NHWC pixels, widened to
// uint16 once per convolution by the driver (indirect_row_bytes 2), so a depth pair is one
// 32-bit splat: reading the bytes in place took a splat and a zero-extension per row and
// pair, re-done for every column panel.
// With I8TileArgs::y set the tile requantizes its sums to uint8 in its epilogue
// (indirect_requantizes_u8) with requantize_u8__wasmsimd's rounding (i8_lanes_wasm.h).
// The dot product is signed, so the same tile multiplies int16 rows too: it is also the
// kernel's indirect_i16, the products of the exact Winograd convolution
// (kernels/conv/i8_winograd.h), whose transformed weights are packed in this pair order.
// Compiled only by emscripten (CMakeLists.txt); SIMD128 builds only.
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include <cstring>
#include <vector>

#include "kernels/gemm/i8_gemm.h"
#include "kernels/wasm/i8_lanes_wasm.h"

namespace twinrt::kernels {
namespace {

constexpr int kMr = 4, kNr = 8;
// One depth group of a panel after arranging: 2 pairs x 8 columns x 2 depths, int16.
constexpr int64_t kGroupValues = 2 * kNr * 2;


// Row r's 8 columns requantized to uint8 (I8TileArgs::y): requantize_u8's operations with
// bias 0, so its bytes. m holds the columns' multipliers.
void store_requantized(const I8TileArgs& t, int r, const v128_t (&sums)[2], const v128_t (&m)[2], v128_t zero) {
  const v128_t q0 = round_lanes(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(sums[0]), m[0]), zero);
  const v128_t q1 = round_lanes(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(sums[1]), m[1]), zero);
  const v128_t words = wasm_i16x8_narrow_i32x4(q0, q1);
  const v128_t bytes = wasm_u8x16_narrow_i16x8(words, words);
  uint8_t* y = t.y + r * t.ldy;
  if (t.col_count == kNr) {
    wasm_v128_store64_lane(y, bytes, 0);
    return;
  }
  uint8_t out[16];
  wasm_v128_store(out, bytes);
  for (int j = 0; j < t.col_count; ++j) y[j] = out[j];
}

void store(const I8TileArgs& t, const v128_t (&acc)[kMr][2]) {
  const v128_t col_add[2] = {wasm_v128_load(t.col_add), wasm_v128_load(t.col_add + 4)};  // whole panels of terms
  v128_t m[2] = {}, zero = wasm_i32x4_splat(t.y_zero);
  if (t.y) {  // y_multiplier has col_count entries
    float multiplier[kNr] = {};
    const float* from = t.y_multiplier;
    if (t.col_count < kNr) {  // (copied only then: a vector load over fresh scalar stores stalls)
      for (int j = 0; j < t.col_count; ++j) multiplier[j] = t.y_multiplier[j];
      from = multiplier;
    }
    m[0] = wasm_v128_load(from);
    m[1] = wasm_v128_load(from + 4);
  }
  for (int r = 0; r < t.row_count; ++r) {
    const v128_t row_add = wasm_i32x4_splat(t.row_add[r]);
    const v128_t sums[2] = {wasm_i32x4_add(wasm_i32x4_add(acc[r][0], row_add), col_add[0]),
                            wasm_i32x4_add(wasm_i32x4_add(acc[r][1], row_add), col_add[1])};
    if (t.y) {
      store_requantized(t, r, sums, m, zero);
      continue;
    }
    store_sums(t.c + r * t.ldc, sums, t.col_count);
  }
}

// lo/hi (columns 0-3 / 4-7) += the row's depth pair at `row` times the columns' pairs c0/c1.
inline void madd_row(v128_t& lo, v128_t& hi, v128_t c0, v128_t c1, const uint16_t* row) {
  const v128_t a = wasm_v128_load32_splat(row);  // (d, d + 1) x 4, int16
  lo = wasm_i32x4_add(lo, wasm_i32x4_dot_i16x8(c0, a));
  hi = wasm_i32x4_add(hi, wasm_i32x4_dot_i16x8(c1, a));
}

}  // namespace

void i8_arrange_pairs__wasmsimd(I8Panels& panels) {
  const int64_t groups = static_cast<int64_t>(panels.bytes.size()) / (kNr * 4);
  std::vector<uint8_t> wide(static_cast<size_t>(groups * kGroupValues) * sizeof(int16_t));
  for (int64_t g = 0; g < groups; ++g) {
    const uint8_t* src = panels.bytes.data() + g * kNr * 4;
    int16_t values[kGroupValues];
    for (int j = 0; j < kNr; ++j)
      for (int d = 0; d < 4; ++d) values[i8_pair_index(kNr, j, d)] = static_cast<int8_t>(src[j * 4 + d]);
    std::memcpy(wide.data() + g * sizeof(values), values, sizeof(values));
  }
  panels.bytes.swap(wide);
  panels.value_bytes = 2;
}

// The same products on packed row panels of 2 rows widened to uint16 (i8_widen_rows: group g
// of row r at values g * 8 + r * 4), for the products with packed weights (MatMul's B, its
// columns arranged by i8_arrange_pairs__wasmsimd): a 2 x 8 tile of the portable scheme
// widened every column and row byte in every tile, at half this tile's rate.
void i8_gemm_2x8_rows_u16__wasmsimd(const I8TileArgs& t) {
  const v128_t zero = wasm_i32x4_splat(0);
  v128_t l0 = zero, h0 = zero, l1 = zero, h1 = zero;
  const uint16_t* rows = reinterpret_cast<const uint16_t*>(t.rows);
  const int16_t* cols = reinterpret_cast<const int16_t*>(t.cols);
  for (int64_t g = 0; g < t.k_groups; ++g, rows += 2 * 4, cols += 4 * kNr) {
    for (int pair = 0; pair < 2; ++pair) {
      const v128_t c0 = wasm_v128_load(cols + pair * 2 * kNr), c1 = wasm_v128_load(cols + pair * 2 * kNr + 8);
      madd_row(l0, h0, c0, c1, rows + 2 * pair);
      madd_row(l1, h1, c0, c1, rows + 4 + 2 * pair);
    }
  }
  const v128_t acc[kMr][2] = {{l0, h0}, {l1, h1}, {zero, zero}, {zero, zero}};
  store(t, acc);
}

void i8_gemm_4x8_indirect_u8__wasmsimd(const I8TileArgs& t) {
  // Named accumulators: with an array clang kept them in linear memory (a load and a store
  // per product).
  v128_t l0 = wasm_i32x4_splat(0), h0 = l0, l1 = l0, h1 = l0, l2 = l0, h2 = l0, l3 = l0, h3 = l0;
  const int16_t* cols = reinterpret_cast<const int16_t*>(t.cols);
  for (int64_t tap = 0; tap < t.taps; ++tap) {
    const uint8_t* const* rows = t.indirect + tap * kMr;  // uint16 values (indirect_row_bytes 2)
    const uint16_t* r0 = reinterpret_cast<const uint16_t*>(rows[0]);
    const uint16_t* r1 = reinterpret_cast<const uint16_t*>(rows[1]);
    const uint16_t* r2 = reinterpret_cast<const uint16_t*>(rows[2]);
    const uint16_t* r3 = reinterpret_cast<const uint16_t*>(rows[3]);
    // Depth pairs in order: a group's two pairs are consecutive in the rows and the columns.
    // One offset for the 4 rows (4 pointers stepped together became a vector of them).
    for (int64_t at = 0; at < 4 * t.k_groups; at += 2, cols += 2 * kNr) {
      const v128_t c0 = wasm_v128_load(cols), c1 = wasm_v128_load(cols + 4 * 2);
      madd_row(l0, h0, c0, c1, r0 + at);
      madd_row(l1, h1, c0, c1, r1 + at);
      madd_row(l2, h2, c0, c1, r2 + at);
      madd_row(l3, h3, c0, c1, r3 + at);
    }
  }
  const v128_t acc[kMr][2] = {{l0, h0}, {l1, h1}, {l2, h2}, {l3, h3}};
  store(t, acc);
}

}  // namespace twinrt::kernels
#endif
