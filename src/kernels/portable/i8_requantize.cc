// Requantization and quantization to 8 bits (kernels/gemm/i8_gemm.h), portable code the
// compiler vectorizes. Compiled with -fno-trapping-math (CMakeLists.txt): it lets the
// compiler turn the clamps into vector max/min; no result changes (exceptions are unused).
#include <cstdint>
#include <type_traits>

#include "kernels/gemm/i8_gemm.h"

namespace twinrt::kernels {

namespace {

// round_half_to_even(f) + zero_point, saturated to Q. Floats of magnitude >= 2^22
// saturate whatever the zero point (8-bit), and below that adding and subtracting
// 1.5 * 2^23 rounds to the nearest integer, ties to even, with no libm call.
template <class Q>
Q round_to(float f, int32_t zero_point) {
  constexpr float kLimit = 4194304.0f, kMagic = 12582912.0f;
  constexpr int32_t lo = std::is_same_v<Q, uint8_t> ? 0 : -128, hi = std::is_same_v<Q, uint8_t> ? 255 : 127;
  // Written as max then min (NaN goes to the low end, like quant::quantize), which the
  // compiler maps onto vector max/min instructions with exactly these semantics.
  f = f > -kLimit ? f : -kLimit;
  f = f < kLimit ? f : kLimit;
  int32_t q = static_cast<int32_t>((f + kMagic) - kMagic) + zero_point;
  q = q > lo ? q : lo;
  q = q < hi ? q : hi;
  return static_cast<Q>(q);
}

template <class Q>
void requantize(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier, int64_t multiplier_stride,
                int32_t zero_point, Q* out) {
  const uint32_t b = static_cast<uint32_t>(bias);
  // Two loops, so that each vectorizes (a strided multiplier would need a gather).
  if (multiplier_stride == 0) {
    const float m = multiplier[0];
    for (int64_t i = 0; i < n; ++i)
      out[i] = round_to<Q>(static_cast<float>(static_cast<int32_t>(static_cast<uint32_t>(acc[i]) + b)) * m, zero_point);
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    out[i] = round_to<Q>(static_cast<float>(static_cast<int32_t>(static_cast<uint32_t>(acc[i]) + b)) * multiplier[i * multiplier_stride],
                         zero_point);
}

template <class Q>
void quantize(const float* x, int64_t n, float scale, int32_t zero_point, Q* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = round_to<Q>(x[i] / scale, zero_point);
}

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
