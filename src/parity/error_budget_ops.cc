// Per-operator rules of the expected-error model (docs/parity.md, "Expected float error").
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "parity/error_budget_ops.h"

namespace twinrt::parity {
namespace {

const std::set<std::string>& data_movement_ops() {
  static const std::set<std::string> ops = {
      "Reshape", "Transpose", "Slice", "Gather", "GatherElements", "GatherND", "Concat",
      "Identity", "Flatten", "Squeeze", "Unsqueeze", "Expand", "Tile", "Pad", "Split",
      "DepthToSpace", "SpaceToDepth", "MaxPool", "GlobalMaxPool", "ReduceMax", "ReduceMin",
      "Relu", "Max", "Min", "Abs", "Neg", "Clip", "Where", "ScatterND", "ScatterElements",
      "Scatter", "Shape", "Size", "ArgMax", "ArgMin", "TopK", "NonZero", "Dropout", "Sign",
      "Floor", "Ceil", "Round", "Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual",
      "Not", "And", "Or", "Xor", "IsNaN", "IsInf", "Constant", "ConstantOfShape", "Range",
      "Compress", "ReverseSequence", "Trilu", "OneHot", "EyeLike", "Hardmax", "Mod",
      "SplitToSequence", "SequenceAt", "ConcatFromSequence", "Unique", "MaxRoiPool"};
  return ops;
}

// Ops that round.
const std::set<std::string>& compute_ops() {
  static const std::set<std::string> ops = {
      "Conv", "ConvTranspose", "ConvInteger", "QLinearConv", "MatMul", "MatMulInteger",
      "QLinearMatMul", "Gemm", "Einsum", "Add", "Sub", "Mul", "Div", "Sum", "Mean", "Pow", "Exp",
      "Log", "Sqrt", "Reciprocal", "Softmax", "LogSoftmax", "ReduceSum", "ReduceMean",
      "ReduceSumSquare", "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceProd",
      "LayerNormalization", "GroupNormalization", "InstanceNormalization", "BatchNormalization",
      "LpNormalization", "MeanVarianceNormalization", "LRN", "AveragePool", "LpPool",
      "GlobalAveragePool", "GlobalLpPool", "Resize", "Upsample", "DequantizeLinear", "CumSum",
      "Sigmoid", "HardSigmoid", "Tanh", "LeakyRelu", "PRelu", "Elu", "Selu", "Celu", "Softplus",
      "Softsign", "HardSwish", "Gelu", "Mish", "Erf", "Sin", "Cos", "ThresholdedRelu", "Shrink"};
  return ops;
}

bool has_subgraph(const ir::Node& node) {
  for (const auto& a : node.attributes)
    if (a.type == ir::Attribute::Type::kGraph || a.type == ir::Attribute::Type::kGraphs) return true;
  return false;
}

int64_t int_attr(const ir::Node& node, const char* name, int64_t fallback) {
  const ir::Attribute* a = node.attr(name);
  return a ? a->i : fallback;
}

std::string string_attr(const ir::Node& node, const char* name) {
  const ir::Attribute* a = node.attr(name);
  return a ? a->s : "";
}

int64_t product(const std::vector<int64_t>& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to && i < s.size(); ++i) p *= std::max<int64_t>(s[i], 1);
  return p;
}

const std::vector<int64_t>* shape_of(const std::vector<OperandView>& v, size_t i) {
  return i < v.size() && v[i].shape ? &*v[i].shape : nullptr;
}

// Axis attribute normalised to [0, rank); nullopt when out of range.
std::optional<size_t> axis(const ir::Node& node, int64_t fallback, size_t rank) {
  int64_t a = int_attr(node, "axis", fallback);
  if (a < 0) a += static_cast<int64_t>(rank);
  if (a < 0 || a >= static_cast<int64_t>(rank)) return std::nullopt;
  return static_cast<size_t>(a);
}

int64_t numel_ratio(const std::vector<int64_t>* in, const OperandView& out) {
  if (!in || !out.shape) return 1;
  const int64_t a = product(*in, 0, in->size()), b = product(*out.shape, 0, out.shape->size());
  return b > 0 ? std::max<int64_t>(a / b, 1) : 1;
}

}  // namespace

double unit_roundoff(DataType dtype) {
  switch (dtype) {
    case DataType::kFloat: return 0x1p-24;
    case DataType::kFloat16: return 0x1p-11;
    case DataType::kBFloat16: return 0x1p-8;
    case DataType::kDouble: return 0x1p-53;
    default: return 0;
  }
}

double final_rounding_units(const ir::Node& node) {
  static const std::set<std::string> transcendental = {"Exp", "Log", "Tanh", "Sigmoid", "Erf", "Gelu", "Softplus",
                                                       "Mish", "Sin", "Cos", "Pow", "Elu", "Selu", "Celu"};
  return transcendental.count(node.op_type) ? 4 : 2;
}

double accumulation_roundoff(DataType dtype) {
  if (dtype == DataType::kFloat16 || dtype == DataType::kBFloat16) return unit_roundoff(DataType::kFloat);
  return unit_roundoff(dtype);
}

OpClass classify(const ir::Node& node, DataType output_dtype, const std::vector<OperandView>& inputs) {
  const std::string& op = node.op_type;
  if (has_subgraph(node)) return OpClass::kSubgraph;
  const bool float_in = !inputs.empty() && dtype_is_float(inputs[0].dtype);
  if (op == "Cast" || op == "CastLike") {
    if (float_in && !dtype_is_float(output_dtype)) return OpClass::kToInteger;
    if (float_in && dtype_is_float(output_dtype) &&
        unit_roundoff(output_dtype) > unit_roundoff(inputs[0].dtype))
      return OpClass::kNarrowingCast;
    return OpClass::kDataMovement;
  }
  if (op == "QuantizeLinear" || op == "DynamicQuantizeLinear") return OpClass::kToInteger;
  if ((op == "Resize" || op == "Upsample") && string_attr(node, "mode") != "linear" &&
      string_attr(node, "mode") != "cubic")
    return OpClass::kDataMovement;  // nearest (the default) copies values
  if (data_movement_ops().count(op)) return OpClass::kDataMovement;
  if (compute_ops().count(op)) return OpClass::kCompute;
  return OpClass::kUnknown;
}

int64_t reduction_length(const ir::Node& node, const std::vector<OperandView>& inputs,
                         const OperandView& output) {
  const std::string& op = node.op_type;
  const auto* x = shape_of(inputs, 0);
  if (op == "Conv" || op == "ConvInteger" || op == "QLinearConv") {
    // Weight [M, C/group, k...]: each output sums C/group * prod(k) products.
    const auto* w = shape_of(inputs, op == "QLinearConv" ? 3 : 1);
    return w && w->size() >= 2 ? product(*w, 1, w->size()) : 1;
  }
  if (op == "ConvTranspose") {
    // Weight [C, M/group, k...]: each output gathers at most C/group * prod(k) products.
    const auto* w = shape_of(inputs, 1);
    if (!w || w->size() < 2) return 1;
    const int64_t group = std::max<int64_t>(int_attr(node, "group", 1), 1);
    return std::max<int64_t>((*w)[0] / group, 1) * product(*w, 2, w->size());
  }
  if (op == "MatMul" || op == "MatMulInteger" || op == "QLinearMatMul") {
    if (x && !x->empty()) return std::max<int64_t>(x->back(), 1);
    const auto* b = shape_of(inputs, op == "QLinearMatMul" ? 3 : 1);
    return b && b->size() >= 2 ? std::max<int64_t>((*b)[b->size() - 2], 1) : 1;
  }
  if (op == "Gemm") {
    if (x && x->size() == 2) return std::max<int64_t>((*x)[int_attr(node, "transA", 0) ? 0 : 1], 1);
    const auto* b = shape_of(inputs, 1);
    return b && b->size() == 2 ? std::max<int64_t>((*b)[int_attr(node, "transB", 0) ? 1 : 0], 1) : 1;
  }
  if (op.rfind("Reduce", 0) == 0) return numel_ratio(x, output);
  if (op == "Softmax" || op == "LogSoftmax" || op == "LpNormalization") {
    if (!x) return 1;
    const auto a = axis(node, -1, x->size());
    return a ? std::max<int64_t>((*x)[*a], 1) : 1;
  }
  if (op == "LayerNormalization") {
    if (!x) return 1;
    const auto a = axis(node, -1, x->size());
    return a ? product(*x, *a, x->size()) : 1;
  }
  if (op == "InstanceNormalization" || op == "GlobalAveragePool" || op == "GlobalLpPool")
    return x ? product(*x, 2, x->size()) : 1;
  if (op == "GroupNormalization") {
    const int64_t groups = std::max<int64_t>(int_attr(node, "num_groups", 1), 1);
    return x && x->size() >= 2 ? std::max<int64_t>(product(*x, 1, x->size()) / groups, 1) : 1;
  }
  if (op == "MeanVarianceNormalization") {  // default axes [0, 2, 3]
    return x ? std::max<int64_t>(product(*x, 0, 1) * product(*x, 2, x->size()), 1) : 1;
  }
  if (op == "AveragePool" || op == "LpPool") {
    const ir::Attribute* k = node.attr("kernel_shape");
    return k ? product(k->ints, 0, k->ints.size()) : 1;
  }
  // (x - mean) / sqrt(var + eps) * scale + bias: a chain of about four roundings, which
  // engines fold differently (ONNX Runtime into one scale and shift), so count it as four terms.
  if (op == "BatchNormalization") return 4;
  if (op == "LRN") return std::max<int64_t>(int_attr(node, "size", 1), 1);
  if (op == "Resize" || op == "Upsample") return string_attr(node, "mode") == "cubic" ? 16 : 4;
  if (op == "Sum" || op == "Mean") return std::max<int64_t>(static_cast<int64_t>(inputs.size()), 1);
  if (op == "CumSum" && x) {
    const auto a = axis(node, 0, x->size());
    return a ? std::max<int64_t>((*x)[*a], 1) : 1;
  }
  return 1;
}

double inherited_relative(const ir::Node& node, const std::vector<OperandView>& inputs,
                          const OperandView& output) {
  const std::string& op = node.op_type;
  double max_rel = 0;
  for (const auto& in : inputs) max_rel = std::max(max_rel, in.relative);
  const OperandView* x = inputs.empty() ? nullptr : &inputs[0];
  // Sums: absolute errors add in quadrature (independent rounding errors), so
  // cancellation (a small output) raises the relative error.
  if (op == "Add" || op == "Sub" || op == "Sum") {
    if (!output.max_abs || *output.max_abs <= 0) return max_rel;
    double abs_rss = 0;
    for (const auto& in : inputs) {
      if (!in.max_abs) return max_rel;
      abs_rss = std::hypot(abs_rss, in.relative * *in.max_abs);
    }
    return abs_rss / *output.max_abs;
  }
  // exp(x + d) = exp(x) * (1 + d): the absolute input error becomes a relative one.
  if (op == "Exp" && x && x->max_abs) return x->relative * *x->max_abs;
  // Softmax and LogSoftmax keep gain 1: the worst-case bound (twice the logits' absolute
  // error) was over 1000x above the measured error on PaddleOCR rec (docs/parity.md).
  // Everything else, products included (weights are exact, and the two factors of x * f(x)
  // share one error, so adding them would compound along a chain): gain 1.
  return max_rel;
}

}  // namespace twinrt::parity
