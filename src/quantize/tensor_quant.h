// Quantization parameters and quantized copies of float tensors, as the ONNX
// QuantizeLinear spec defines them: q = saturate(round_half_even(x / scale) + zero_point).
#pragma once

#include <cstdint>
#include <vector>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::quantize {

struct QuantizedWeights {
  Tensor data;    // int8, the input's shape
  Tensor scale;   // float32: scalar, or [channels] along `axis`
  Tensor zero;    // int8 zeros, the scale's shape
};

// Symmetric int8 in [-limit, limit]: scale = max|w| / limit per tensor, or per slice along
// `axis` when per_channel. limit is 127, or 64 for 7-bit weights (--reduce-range).
Result<QuantizedWeights> quantize_weights(const Tensor& w, bool per_channel, int64_t axis, int limit = 127);

// Parameters for an activation observed in [lo, hi] (widened to hold 0, so zero is exact).
// uint8 (default): scale = (hi - lo) / 255, zero_point = round(-lo / scale) in [0, 255];
// int8: the same grid shifted down by 128. Symmetric: the range is ±max(|lo|, |hi|), int8 in
// [-127, 127] with zero point 0 (scale = m / 127), uint8 with zero point 128 (scale = 2m / 255),
// as in ONNX Runtime's quantizer.
struct ActivationParams {
  float scale = 1.0f;
  int32_t zero = 0;  // a uint8 or int8 value
};
ActivationParams activation_params(float lo, float hi, bool is_signed = false, bool symmetric = false);

// int32 bias with scale input_scale * weight_scale[m] (float products) and zero point 0.
Result<Tensor> quantize_bias(const Tensor& bias, float input_scale, const Tensor& weight_scale, Tensor& bias_scale);

}  // namespace twinrt::quantize
