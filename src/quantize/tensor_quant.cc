#include "quantize/tensor_quant.h"

#include <algorithm>
#include <cmath>

#include "kernels/math/math.h"

namespace twinrt::quantize {
namespace {

Result<std::vector<float>> float_values(const Tensor& t, const char* what) {
  if (t.dtype() != DataType::kFloat) return invalid_argument(std::string(what) + " must be float32, got " + dtype_name(t.dtype()));
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

template <class T>
Result<Tensor> tensor_of(std::vector<int64_t> shape, const std::vector<T>& v) {
  return Tensor::from_vector<T>(std::move(shape), v);
}

}  // namespace

Result<QuantizedWeights> quantize_weights(const Tensor& w, bool per_channel, int64_t axis, int limit) {
  ASSIGN_OR_RETURN(std::vector<float> values, float_values(w, "weights"));
  const int64_t rank = w.rank();
  if (per_channel && (axis < 0 || axis >= rank)) return invalid_argument("per-channel axis out of range");
  if (limit < 1 || limit > 127) return invalid_argument("weight limit must be in [1, 127]");
  const int64_t channels = per_channel ? w.dim(axis) : 1;
  int64_t inner = 1;
  if (per_channel)
    for (int64_t d = axis + 1; d < rank; ++d) inner *= w.dim(d);
  auto channel_of = [&](size_t i) { return per_channel ? static_cast<int64_t>(i) / inner % channels : 0; };
  std::vector<float> max_abs(static_cast<size_t>(channels), 0.0f);
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) return invalid_argument("weights hold a non-finite value");
    float& m = max_abs[static_cast<size_t>(channel_of(i))];
    m = std::max(m, std::fabs(values[i]));
  }
  std::vector<float> scale(max_abs.size());
  for (size_t c = 0; c < scale.size(); ++c) scale[c] = max_abs[c] > 0.0f ? max_abs[c] / static_cast<float>(limit) : 1.0f;
  std::vector<int8_t> q(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const double r = math::round_half_even(static_cast<double>(values[i] / scale[static_cast<size_t>(channel_of(i))]));
    q[i] = static_cast<int8_t>(std::clamp(r, -static_cast<double>(limit), static_cast<double>(limit)));
  }
  const std::vector<int64_t> param_shape = per_channel ? std::vector<int64_t>{channels} : std::vector<int64_t>{};
  QuantizedWeights out;
  ASSIGN_OR_RETURN(out.data, tensor_of<int8_t>(w.shape(), q));
  ASSIGN_OR_RETURN(out.scale, tensor_of<float>(param_shape, scale));
  ASSIGN_OR_RETURN(out.zero, tensor_of<int8_t>(param_shape, std::vector<int8_t>(scale.size(), 0)));
  return out;
}

ActivationParams activation_params(float lo, float hi, bool is_signed, bool symmetric) {
  lo = std::min(lo, 0.0f);
  hi = std::max(hi, 0.0f);
  ActivationParams p;
  if (symmetric) hi = std::max(hi, -lo), lo = -hi;
  if (!(hi > lo) || !std::isfinite(hi - lo)) return p;  // all zeros (or garbage): scale 1, zero 0
  if (symmetric) {  // zero points set, not computed: -lo / scale is 127.5 give or take a rounding
    p.scale = static_cast<float>(static_cast<double>(hi) / (is_signed ? 127.0 : 127.5));
    p.zero = is_signed ? 0 : 128;
    return p;
  }
  p.scale = static_cast<float>((static_cast<double>(hi) - lo) / 255.0);
  const double shift = is_signed ? -128.0 : 0.0;
  const double zero = math::round_half_even(shift - static_cast<double>(lo) / p.scale);
  p.zero = static_cast<int32_t>(std::clamp(zero, shift, shift + 255.0));
  return p;
}

Result<Tensor> quantize_bias(const Tensor& bias, float input_scale, const Tensor& weight_scale, Tensor& bias_scale) {
  ASSIGN_OR_RETURN(std::vector<float> b, float_values(bias, "bias"));
  ASSIGN_OR_RETURN(std::vector<float> ws, float_values(weight_scale, "weight scale"));
  if (ws.size() != 1 && ws.size() != b.size()) return invalid_argument("bias and weight scales disagree in length");
  std::vector<float> scale(b.size());
  std::vector<int32_t> q(b.size());
  for (size_t m = 0; m < b.size(); ++m) {
    scale[m] = input_scale * ws[ws.size() == 1 ? 0 : m];
    const double r = scale[m] > 0.0f ? math::round_half_even(static_cast<double>(b[m]) / scale[m]) : 0.0;
    q[m] = static_cast<int32_t>(std::clamp(r, -2147483647.0, 2147483647.0));
  }
  ASSIGN_OR_RETURN(bias_scale, tensor_of<float>({static_cast<int64_t>(b.size())}, scale));
  return tensor_of<int32_t>({static_cast<int64_t>(b.size())}, q);
}

}  // namespace twinrt::quantize
