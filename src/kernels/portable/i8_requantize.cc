// Requantization and quantization to 8 bits (kernels/gemm/i8_gemm.h), portable code the
// compiler vectorizes (i8_requantize.inc). Compiled with -fno-trapping-math (CMakeLists.txt):
// it lets the compiler turn the clamps into vector max/min; no result changes.
#include <cstdint>
#include <type_traits>

#include "kernels/gemm/i8_gemm.h"

namespace twinrt::kernels {

namespace {

#include "kernels/portable/i8_requantize.inc"

}  // namespace

void requantize_u8(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier, int64_t multiplier_stride,
                   int32_t zero_point, uint8_t* out) {
  requantize(acc, n, bias, multiplier, multiplier_stride, zero_point, out);
}
void requantize_s8(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier, int64_t multiplier_stride,
                   int32_t zero_point, int8_t* out) {
  requantize(acc, n, bias, multiplier, multiplier_stride, zero_point, out);
}

void quantize_u8(const float* x, int64_t n, float scale, int32_t zero_point, uint8_t* out) {
  quantize(x, n, scale, zero_point, out);
}
void quantize_s8(const float* x, int64_t n, float scale, int32_t zero_point, int8_t* out) {
  quantize(x, n, scale, zero_point, out);
}

void qdq_add_u8(const uint8_t* a, const uint8_t* b, int64_t n, const QdqAddParams& p, uint8_t* y) { qdq_add(a, b, n, p, y); }

void f32_range_with_zero(const float* x, int64_t n, float& lo, float& hi) {
  // Eight running lanes (vector min/max), combined at the end: the minimum and maximum of
  // a set do not depend on the order they are taken in. A NaN compares false and changes
  // nothing, and a -0 never replaces the +0 every lane starts from.
  lo = 0.0f;
  hi = 0.0f;
  constexpr int kLanes = 8;
  float l[kLanes], h[kLanes];
  for (int j = 0; j < kLanes; ++j) l[j] = lo, h[j] = hi;
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int j = 0; j < kLanes; ++j) {
      l[j] = x[i + j] < l[j] ? x[i + j] : l[j];
      h[j] = x[i + j] > h[j] ? x[i + j] : h[j];
    }
  for (; i < n; ++i) {
    l[0] = x[i] < l[0] ? x[i] : l[0];
    h[0] = x[i] > h[0] ? x[i] : h[0];
  }
  for (int j = 0; j < kLanes; ++j) {
    lo = l[j] < lo ? l[j] : lo;
    hi = h[j] > hi ? h[j] : hi;
  }
}

}  // namespace twinrt::kernels
