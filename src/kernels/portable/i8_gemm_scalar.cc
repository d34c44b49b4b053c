// The portable tier's 8-bit GEMM tile, 6 x 8: plain int32 loops that the compiler may
// vectorize (SSE2 on x86-64). Products and sums are exact; uint32 sums wrap like int32
// hardware. WebAssembly SIMD128 builds have their own tiles (kernels/wasm).
#include <cstdint>

#include "kernels/gemm/i8_gemm.h"

namespace twinrt::kernels {
namespace {

constexpr int kMr = 6, kNr = 8;

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

template <bool RowsU8>
void tile(const I8TileArgs& t) {
  uint32_t acc[kMr][kNr] = {};
  const uint8_t* rows[kMr];
  for (int r = 0; r < kMr; ++r) rows[r] = t.rows + r * 4;
  accumulate<RowsU8>(acc, rows, kMr * 4, t.cols, t.k_groups);
  store(t, acc);
}

// Unpacked unsigned rows through the indirection pointers, tap by tap.
void indirect_tile(const I8TileArgs& t) {
  uint32_t acc[kMr][kNr] = {};
  for (int64_t tap = 0; tap < t.taps; ++tap)
    accumulate<true>(acc, t.indirect + tap * kMr, 4, t.cols + tap * t.k_groups * kNr * 4, t.k_groups);
  store(t, acc);
}

// int16 rows through the indirection pointers against int16 columns in pair order
// (i8_pair_index), tap by tap: the 8-bit Winograd products.
void indirect_i16_tile(const I8TileArgs& t) {
  uint32_t acc[kMr][kNr] = {};
  const int16_t* cols = reinterpret_cast<const int16_t*>(t.cols);
  for (int64_t tap = 0; tap < t.taps; ++tap)
    for (int64_t g = 0; g < t.k_groups; ++g, cols += kNr * 4)
      for (int r = 0; r < kMr; ++r) {
        const int16_t* row = reinterpret_cast<const int16_t*>(t.indirect[tap * kMr + r]) + g * 4;
        for (int d = 0; d < 4; ++d)
          for (int j = 0; j < kNr; ++j)
            acc[r][j] += static_cast<uint32_t>(int32_t{row[d]} * cols[i8_pair_index(kNr, j, d)]);
      }
  store(t, acc);
}

}  // namespace

void i8_gemm_6x8_rows_u8__scalar(const I8TileArgs& t) { tile<true>(t); }
void i8_gemm_6x8_rows_s8__scalar(const I8TileArgs& t) { tile<false>(t); }
void i8_gemm_6x8_indirect_u8__scalar(const I8TileArgs& t) { indirect_tile(t); }
void i8_gemm_6x8_indirect_i16__scalar(const I8TileArgs& t) { indirect_i16_tile(t); }

}  // namespace twinrt::kernels
