// ONNX Runtime's contrib operator domain, com.microsoft (version 1: ORT never bumped it).
// Its quantized ops are what ORT's own quantizer writes in QOperator format.
#pragma once

#include <cstdint>
#include <string>

#include "ops/op.h"
#include "twinrt/tensor.h"

namespace twinrt::contrib {

inline constexpr const char* kMsDomain = "com.microsoft";

// A per-tensor (scale, zero point) pair of an 8-bit tensor.
struct QParam {
  float scale = 1.0f;
  int32_t zero = 0;
};

// Reads the scalar float scale at input `scale` and the zero point at input `zero`
// (optional: 0 when absent, its type must be `q`, the quantized tensor's type). `name`
// names the tensor in errors ("A" gives "A_scale", "A_zero_point").
Result<QParam> read_qparam(RunContext& ctx, size_t scale, size_t zero, DataType q, const std::string& name);

// The inputs of the unary QLinear ops: X (input 0, uint8 or int8), its scale and zero point
// (inputs 1, 2) and the output's (3, 4). `x` and `y` are the prefixes the op's spec gives
// the scale and zero-point inputs, for errors ("X_scale", or "x_scale").
struct UnaryQLinear {
  const Tensor* x = nullptr;
  QParam px, py;
};
Result<UnaryQLinear> read_unary_qlinear(RunContext& ctx, const std::string& x, const std::string& y);

// An error unless t is uint8 or int8 ("X must be uint8 or int8, got float32").
Status check_8bit(const Tensor& t, const std::string& name);

// Checks at load that the node has between `min` and `max` inputs and that the
// required ones (indices in `required`) are present.
Status check_inputs(const KernelInit& init, size_t min, size_t max, std::initializer_list<size_t> required);

}  // namespace twinrt::contrib

// Registers `factory` for com.microsoft `op`, version 1.
#define TWINRT_REGISTER_MS_OP(op, factory) \
  TWINRT_REGISTER_OP_EX(::twinrt::contrib::kMsDomain, op, 1, 1, "ref", 0, factory)
