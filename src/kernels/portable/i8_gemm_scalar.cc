// The portable tier's 8-bit GEMM tile, 6 x 8: plain int32 loops that the compiler may
// vectorize for the target (SSE2, WebAssembly SIMD128). Products and sums are exact
// (uint32 sums wrap like int32 hardware).
#include <cstdint>

#include "kernels/gemm/i8_gemm.h"

namespace twinrt::kernels {
namespace {

constexpr int kMr = 6, kNr = 8;

template <bool RowsU8>
int32_t row_value(uint8_t v) {
  return RowsU8 ? int32_t{v} : int32_t{static_cast<int8_t>(v)};
}

template <bool RowsU8>
void tile(const I8TileArgs& t) {
  uint32_t acc[kMr][kNr] = {};
  for (int64_t g = 0; g < t.k_groups; ++g) {
    const uint8_t* rows = t.rows + g * kMr * 4;
    const uint8_t* cols = t.cols + g * kNr * 4;
    for (int r = 0; r < kMr; ++r)
      for (int q = 0; q < 4; ++q) {
        const int32_t a = row_value<RowsU8>(rows[r * 4 + q]);
        for (int j = 0; j < kNr; ++j)
          acc[r][j] += static_cast<uint32_t>(a * row_value<!RowsU8>(cols[j * 4 + q]));
      }
  }
  for (int r = 0; r < t.row_count; ++r)
    for (int j = 0; j < t.col_count; ++j) t.c[r * t.ldc + j] = static_cast<int32_t>(acc[r][j]);
}

}  // namespace

void i8_gemm_6x8_rows_u8__scalar(const I8TileArgs& t) { tile<true>(t); }
void i8_gemm_6x8_rows_s8__scalar(const I8TileArgs& t) { tile<false>(t); }

}  // namespace twinrt::kernels
