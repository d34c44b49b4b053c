// How each operator adds and carries float error: its class, its reduction length K and
// the gain applied to its inputs' errors. The model is in docs/parity.md, section
// "Expected float error".
#pragma once

#include <cstdint>
#include <optional>
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

// The constant c of the own-error term c*u*sqrt(K) + u.
inline constexpr double kReductionConstant = 2.0;

// What the rules see of one input or output: shape and magnitude when known.
struct OperandView {
  DataType dtype = DataType::kUndefined;
  std::optional<std::vector<int64_t>> shape;
  std::optional<double> max_abs;
  double relative = 0;  // of inputs: the error accumulated so far
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

}  // namespace twinrt::parity
