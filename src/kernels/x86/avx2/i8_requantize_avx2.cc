// The requantization and quantization loops compiled for AVX2 (8 lanes, vector int32 min/max): the same
// operations as the portable copy, so the same bytes. Used by the AVX2 and VNNI tiles' ops.
#include <cstdint>
#include <type_traits>

#include "kernels/gemm/i8_gemm.h"

namespace twinrt::kernels {
namespace {

#include "kernels/portable/i8_requantize.inc"

}  // namespace

void requantize_u8__avx2(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier, int64_t multiplier_stride,
                         int32_t zero_point, uint8_t* out) {
  requantize(acc, n, bias, multiplier, multiplier_stride, zero_point, out);
}
void requantize_s8__avx2(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier, int64_t multiplier_stride,
                         int32_t zero_point, int8_t* out) {
  requantize(acc, n, bias, multiplier, multiplier_stride, zero_point, out);
}
void quantize_u8__avx2(const float* x, int64_t n, float scale, int32_t zero_point, uint8_t* out) {
  quantize(x, n, scale, zero_point, out);
}
void quantize_s8__avx2(const float* x, int64_t n, float scale, int32_t zero_point, int8_t* out) {
  quantize(x, n, scale, zero_point, out);
}

}  // namespace twinrt::kernels
