// How each operator adds and carries float error: its class, its reduction length K and
// the gain applied to its inputs' errors. The model is in docs/parity.md, section
// "Expected float error".
#pragma once

#include <cmath>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "parity/error_budget.h"

namespace twinrt::parity {

enum class OpClass {
  kDataMovement,   // copies or selects values: no rounding of its own
  kCompute,        // rounds: own error c*u*sqrt(K) + u
  kNarrowingCast,  // rounds once to a narrower float type: own error u of the target
  kToInteger,      // rounds floats to integers (Cast, QuantizeLinear): +1 step when inputs err
  kSubgraph,       // If / Loop / Scan: max input error plus u
  kUnknown,        // not in the tables: 2u
};

// The constant c of the own-error term c*u*sqrt(K) of a reduction of length K > 1. Calibrated on measured own errors
// of twinrt against ONNX Runtime (localize, PaddleOCR rec, MobileNetV2): with c = 2 rec's Convs
// reached 5.5x their budget (max |y| understates the partial sums when terms cancel); c = 16
// keeps every node of those models under 1 while a 5% weight change stays >1e4x over.
inline constexpr double kReductionConstant = 16.0;

// A computing node's own relative error: c*u_acc*sqrt(K) for its reduction (K > 1) in the
// precision it accumulates in, plus `final_units` u of the output type for the final
// rounding and for math functions that differ between libraries (final_rounding_units).
inline double own_relative_error(double u, double u_accumulate, int64_t reduction_length, double final_units = 2) {
  const double reduction = reduction_length > 1 ? kReductionConstant * std::sqrt(static_cast<double>(reduction_length)) : 0;
  return u_accumulate * reduction + final_units * u;
}

// 2 (u) for ops that round once; 4 for transcendental functions, which libraries
// approximate to a few ulps: ONNX Runtime's Tanh is 4 ulps from twinrt's near +-1
// (measured with localize on the chained-quantizer model of tests/parity_e2e).
double final_rounding_units(const ir::Node& node);

// What the rules see of one input or output: shape and magnitude when known.
struct OperandView {
  DataType dtype = DataType::kUndefined;
  std::optional<std::vector<int64_t>> shape;
  std::optional<double> max_abs;
  double relative = 0;  // of inputs: the error accumulated so far
  bool saturated = false;
  std::string not_estimable;  // why its error cannot be estimated, or empty
};

OpClass classify(const ir::Node& node, DataType output_dtype, const std::vector<OperandView>& inputs);

// Terms summed per output element; 1 for elementwise ops and when shapes are unknown.
int64_t reduction_length(const ir::Node& node, const std::vector<OperandView>& inputs,
                         const OperandView& output);

// The part of the output's relative error that comes from the inputs' errors.
double inherited_relative(const ir::Node& node, const std::vector<OperandView>& inputs,
                          const OperandView& output);

// Unit roundoff of a dtype: 2^-24 float32, 2^-11 float16, 2^-8 bfloat16, 2^-53 float64, 0 else.
double unit_roundoff(DataType dtype);

// Unit roundoff of the precision sums of `dtype` are accumulated in: float16 and bfloat16
// have no arithmetic of their own on CPUs, so engines widen them to float32 (twinrt's ops;
// ONNX Runtime inserts casts) and round once at the end.
double accumulation_roundoff(DataType dtype);

}  // namespace twinrt::parity
