// Shared pieces of the quantization ops: reading scales and zero points, the
// round-half-to-even saturating cast, and per-tensor / per-axis parameter layouts.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernels/gemm/i8_gemm.h"
#include "kernels/math/math.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::quant {

// round_half_to_even(v) + zero_point, saturated to Q's range. Computed in double so the
// sum and the comparison are exact.
template <class Q>
Q quantize_double(double v, int32_t zero_point) {
  const double r = math::round_half_even(v) + zero_point;
  if (!(r >= double{std::numeric_limits<Q>::min()})) return r > 0 ? std::numeric_limits<Q>::max() : std::numeric_limits<Q>::min();
  if (r > double{std::numeric_limits<Q>::max()}) return std::numeric_limits<Q>::max();
  return static_cast<Q>(r);
}
template <class Q>
Q quantize(float v, int32_t zero_point) {
  return quantize_double<Q>(static_cast<double>(v), zero_point);
}

// Zero points of any 8/32-bit integer type as int32.
Result<std::vector<int32_t>> read_zero_points(const Tensor& t, const std::string& what);
// float32 scales (every quantization op up to opset 18 takes float scales).
Result<std::vector<float>> read_scales(const Tensor& t, const std::string& what);

// Which parameter applies to element i of a tensor: (i / inner) % count.
struct ParamLayout {
  int64_t count = 1;  // 1: one parameter for the whole tensor
  int64_t inner = 1;
  int64_t index(int64_t i) const { return count == 1 ? 0 : (i / inner) % count; }
};

// A per-tensor layout when the parameters are a scalar (or one element), otherwise
// per-axis along `axis` of `shape`; errors name the mismatch.
Result<ParamLayout> param_layout(const std::vector<int64_t>& shape, int64_t axis, const Tensor& params,
                                 const std::string& what);

// DynamicQuantizeLinear: a uint8 scale and zero point covering [min(x, 0), max(x, 0)]
// (float32 arithmetic, as the spec's reference) and x quantized with them into out by
// `quantize` (kernels::quantize_u8 or a tier's copy of it: the same bytes).
void dynamic_quantize(const float* x, int64_t n, uint8_t* out, float& scale, uint8_t& zero,
                      kernels::I8QuantizeU8Fn quantize = kernels::quantize_u8);

}  // namespace twinrt::quant
