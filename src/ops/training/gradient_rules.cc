#include "ops/training/gradient_rules.h"

#include <functional>

#include "kernels/math/half.h"
#include "ops/common/broadcast.h"
#include "ops/common/dispatch.h"

namespace twinrt {
namespace {

// out[i] = f(a[ia], b[ib]) over the broadcast of a and b.
Result<Tensor> broadcast_map(const Tensor& a, const Tensor& b, const std::function<double(double, double)>& f) {
  ASSIGN_OR_RETURN(std::vector<int64_t> shape, broadcast_shapes({a.shape(), b.shape()}));
  ASSIGN_OR_RETURN(Tensor out, Tensor::create(DataType::kDouble, shape));
  const double* pa = a.data<double>();
  const double* pb = b.data<double>();
  double* po = out.data<double>();
  BroadcastIterator(shape, {a.shape(), b.shape()}).for_each([&](int64_t i, const int64_t* off) {
    po[i] = f(pa[off[0]], pb[off[1]]);
  });
  return out;
}

// Sums `grad` (shaped like a broadcast result) back onto `shape`: the gradient of an
// input that was broadcast.
Result<Tensor> sum_to_shape(const Tensor& grad, const std::vector<int64_t>& shape) {
  if (grad.shape() == shape) return grad;
  ASSIGN_OR_RETURN(Tensor out, Tensor::create(DataType::kDouble, shape));
  const double* g = grad.data<double>();
  double* o = out.data<double>();
  BroadcastIterator(grad.shape(), {shape}).for_each([&](int64_t i, const int64_t* off) { o[off[0]] += g[i]; });
  return out;
}

// Gradients of a two-input elementwise op from its local derivatives d out/d a and
// d out/d b, each a function of (a, b).
Result<std::vector<Tensor>> binary_gradient(const NodeGradient& n, const std::function<double(double, double)>& da,
                                            const std::function<double(double, double)>& db) {
  const Tensor& a = *n.inputs[0];
  const Tensor& b = *n.inputs[1];
  const Tensor& dy = *n.output_grads[0];
  ASSIGN_OR_RETURN(Tensor local_a, broadcast_map(a, b, da));
  ASSIGN_OR_RETURN(Tensor local_b, broadcast_map(a, b, db));
  auto times = [](double x, double y) { return x * y; };
  ASSIGN_OR_RETURN(Tensor ga, broadcast_map(dy, local_a, times));
  ASSIGN_OR_RETURN(Tensor gb, broadcast_map(dy, local_b, times));
  ASSIGN_OR_RETURN(Tensor ra, sum_to_shape(ga, a.shape()));
  ASSIGN_OR_RETURN(Tensor rb, sum_to_shape(gb, b.shape()));
  return std::vector<Tensor>{std::move(ra), std::move(rb)};
}

Result<std::vector<Tensor>> add_rule(const NodeGradient& n) {
  return binary_gradient(n, [](double, double) { return 1.0; }, [](double, double) { return 1.0; });
}

Result<std::vector<Tensor>> sub_rule(const NodeGradient& n) {
  return binary_gradient(n, [](double, double) { return 1.0; }, [](double, double) { return -1.0; });
}

Result<std::vector<Tensor>> mul_rule(const NodeGradient& n) {
  return binary_gradient(n, [](double, double b) { return b; }, [](double a, double) { return a; });
}

Result<std::vector<Tensor>> identity_rule(const NodeGradient& n) {
  return std::vector<Tensor>{*n.output_grads[0]};
}

struct RuleEntry {
  const char* op;
  size_t inputs;  // rules assume exactly this many inputs and one output
  GradientRule rule;
};

constexpr RuleEntry kRules[] = {
    {"Add", 2, add_rule},
    {"Sub", 2, sub_rule},
    {"Mul", 2, mul_rule},
    {"Identity", 1, identity_rule},
};

}  // namespace

GradientRule find_gradient_rule(const ir::Node& node) {
  if (!ir::canonical_domain(node.domain).empty() || node.outputs.size() != 1) return nullptr;
  for (const RuleEntry& e : kRules)
    if (node.op_type == e.op && node.inputs.size() == e.inputs) return e.rule;
  return nullptr;
}

Result<Tensor> to_double_tensor(const Tensor& t) {
  if (t.dtype() == DataType::kDouble) return t;
  ASSIGN_OR_RETURN(Tensor out, Tensor::create(DataType::kDouble, t.shape()));
  TRY(dispatch<kF32 | kF16 | kBF16>(t.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    for (int64_t i = 0; i < t.numel(); ++i) {
      if constexpr (std::is_same_v<T, float>) out.data<double>()[i] = t.data<float>()[i];
      else out.data<double>()[i] = math::to_float(t.data<T>()[i]);
    }
    return Status::ok();
  }));
  return out;
}

Result<Tensor> filled_double(const std::vector<int64_t>& shape, double value) {
  ASSIGN_OR_RETURN(Tensor out, Tensor::create(DataType::kDouble, shape));
  for (int64_t i = 0; i < out.numel(); ++i) out.data<double>()[i] = value;
  return out;
}

Result<Tensor> add_same_shape(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape())
    return internal_error("gradient shapes differ: " + shape_to_string(a.shape()) + " vs " + shape_to_string(b.shape()));
  ASSIGN_OR_RETURN(Tensor out, Tensor::create(DataType::kDouble, a.shape()));
  for (int64_t i = 0; i < a.numel(); ++i) out.data<double>()[i] = a.data<double>()[i] + b.data<double>()[i];
  return out;
}

}  // namespace twinrt
