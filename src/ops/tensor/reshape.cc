// Reshape and Flatten: the output shares the input's storage under a new shape.
#include <algorithm>

#include "ops/op.h"
#include "ops/tensor/symbolic_shape.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

using tensor_ops::constant_ints;
using tensor_ops::input_ints;

// Checks the target shape's special values: at most one -1, nothing below -1, and
// (allowzero) no 0 together with -1. Returns the position of -1 or -1 when absent.
Result<int64_t> check_target(const std::vector<int64_t>& target, int64_t in_rank, bool allowzero) {
  int64_t inferred = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    const int64_t t = target[i];
    if (t < -1) return invalid_argument("shape value " + std::to_string(t) + " is invalid (below -1)");
    if (t == -1) {
      if (inferred >= 0) return invalid_argument("shape " + shape_to_string(target) + " has more than one -1");
      inferred = static_cast<int64_t>(i);
    }
    if (t == 0 && !allowzero && in_rank >= 0 && static_cast<int64_t>(i) >= in_rank)
      return invalid_argument("shape value 0 at position " + std::to_string(i) +
                              " copies a dimension the input (rank " + std::to_string(in_rank) +
                              ") does not have");
  }
  if (allowzero && inferred >= 0 && std::count(target.begin(), target.end(), 0) > 0)
    return invalid_argument("shape " + shape_to_string(target) + " has both 0 and -1 with allowzero=1");
  return inferred;
}

Result<std::vector<int64_t>> resolve_reshape(const std::vector<int64_t>& in,
                                             const std::vector<int64_t>& target, bool allowzero) {
  ASSIGN_OR_RETURN(int64_t inferred, check_target(target, static_cast<int64_t>(in.size()), allowzero));
  std::vector<int64_t> out = target;
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i] == 0 && !allowzero) out[i] = in[i];
  const int64_t total = shape_numel(in);
  if (inferred >= 0) {
    std::vector<int64_t> others = out;
    others.erase(others.begin() + inferred);
    const int64_t rest = shape_numel(others);  // -1 on overflow
    if (rest <= 0 || total % rest != 0)
      return invalid_argument("cannot reshape " + shape_to_string(in) + " to " + shape_to_string(target) +
                              ": -1 cannot be inferred");
    out[static_cast<size_t>(inferred)] = total / rest;
  }
  if (shape_numel(out) != total)
    return invalid_argument("cannot reshape " + shape_to_string(in) + " (" + std::to_string(total) +
                            " elements) to " + shape_to_string(target));
  return out;
}

// The reshape on symbolic dims; an error only when the shapes are certainly incompatible.
Result<ir::Shape> infer_reshape(const ir::Shape* in, const std::vector<int64_t>& target, bool allowzero) {
  const int64_t in_rank = in ? static_cast<int64_t>(in->size()) : -1;
  ASSIGN_OR_RETURN(int64_t inferred, check_target(target, in_rank, allowzero));
  ir::Shape out;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == 0 && !allowzero) out.push_back(in ? (*in)[i] : ir::Dim{});
    else if (target[i] == -1) out.push_back(ir::Dim{});
    else out.push_back(ir::Dim::of(target[i]));
  }
  if (!in) return out;
  std::vector<ir::Dim> rest;
  for (size_t i = 0; i < out.size(); ++i)
    if (static_cast<int64_t>(i) != inferred) rest.push_back(out[i]);
  bool exact = true;
  ir::Dim quotient = tensor_ops::dim_quotient(*in, rest, &exact);
  if (!exact || (inferred < 0 && quotient.known() && quotient.value != 1))
    return invalid_model("cannot reshape " + ir::shape_to_string(*in) + " to " + shape_to_string(target));
  if (inferred >= 0) out[static_cast<size_t>(inferred)] = quotient;
  return out;
}

class ReshapeKernel final : public OpKernel {
 public:
  ReshapeKernel(std::optional<std::vector<int64_t>> shape_attr, bool allowzero)
      : shape_attr_(std::move(shape_attr)), allowzero_(allowzero) {}

  Status infer(InferContext& ctx) const override {
    auto target = shape_attr_ ? shape_attr_ : constant_ints(ctx.constant_inputs, 1);
    if (target) {
      ASSIGN_OR_RETURN(ir::Shape out, infer_reshape(ctx.shape(0), *target, allowzero_));
      ctx.set_output(0, ctx.dtype(0), std::move(out));
    } else if (auto rank = tensor_ops::static_length(ctx, 1)) {
      ctx.set_output(0, ctx.dtype(0), ir::Shape(static_cast<size_t>(*rank)));
    } else {
      ctx.set_output(0, ctx.dtype(0));
    }
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    std::vector<int64_t> target;
    if (shape_attr_) {
      target = *shape_attr_;
    } else {
      ASSIGN_OR_RETURN(target, input_ints(ctx, 1, "Reshape 'shape' input"));
    }
    ASSIGN_OR_RETURN(auto out_shape, resolve_reshape(x->shape(), target, allowzero_));
    ASSIGN_OR_RETURN(Tensor y, x->reshaped(std::move(out_shape)));
    ctx.set_output(0, Value::of(std::move(y)));
    return Status::ok();
  }

 private:
  std::optional<std::vector<int64_t>> shape_attr_;  // opset < 5
  bool allowzero_;
};

Result<std::unique_ptr<OpKernel>> create_reshape(const KernelInit& init) {
  std::optional<std::vector<int64_t>> shape_attr;
  if (init.opset < 5) {
    if (!init.has_attr("shape")) return init.error("Reshape before opset 5 needs the 'shape' attribute");
    ASSIGN_OR_RETURN(shape_attr, init.attr_ints("shape"));
  } else if (!init.has_input(1)) {
    return init.error("Reshape needs the 'shape' input");
  }
  ASSIGN_OR_RETURN(int64_t allowzero, init.attr_int("allowzero", 0));
  if (allowzero != 0 && allowzero != 1) return init.error("allowzero must be 0 or 1");
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("Reshape takes data and one output");
  return make_kernel<ReshapeKernel>(std::move(shape_attr), allowzero == 1);
}

// Flatten: [d0..d(axis-1)] and [d(axis)..] each collapse to one dimension.
class FlattenKernel final : public OpKernel {
 public:
  explicit FlattenKernel(int64_t axis) : axis_(axis) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* in = ctx.shape(0);
    if (!in) {
      ctx.set_output(0, ctx.dtype(0), ir::Shape(2));
      return Status::ok();
    }
    ASSIGN_OR_RETURN(size_t axis, split_axis(static_cast<int64_t>(in->size())));
    std::vector<ir::Dim> outer(in->begin(), in->begin() + static_cast<std::ptrdiff_t>(axis));
    std::vector<ir::Dim> inner(in->begin() + static_cast<std::ptrdiff_t>(axis), in->end());
    ctx.set_output(0, ctx.dtype(0),
                   ir::Shape{tensor_ops::dim_product(outer), tensor_ops::dim_product(inner)});
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(size_t axis, split_axis(x->rank()));
    const auto split = x->shape().begin() + static_cast<std::ptrdiff_t>(axis);
    const int64_t outer = shape_numel({x->shape().begin(), split});
    const int64_t inner = shape_numel({split, x->shape().end()});
    ASSIGN_OR_RETURN(Tensor y, x->reshaped({outer, inner}));
    ctx.set_output(0, Value::of(std::move(y)));
    return Status::ok();
  }

 private:
  // The split position in [0, rank]; negative axes count from the end.
  Result<size_t> split_axis(int64_t rank) const {
    if (axis_ < -rank || axis_ > rank)
      return invalid_argument("axis " + std::to_string(axis_) + " is out of range for rank " +
                              std::to_string(rank) + " (expected [" + std::to_string(-rank) + ", " +
                              std::to_string(rank) + "])");
    return static_cast<size_t>(axis_ < 0 ? axis_ + rank : axis_);
  }
  int64_t axis_;
};

Result<std::unique_ptr<OpKernel>> create_flatten(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("Flatten takes one input and one output");
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", 1));
  return make_kernel<FlattenKernel>(axis);
}

}  // namespace

TWINRT_REGISTER_OP("Reshape", 1, create_reshape);
TWINRT_REGISTER_OP("Flatten", 1, create_flatten);

}  // namespace twinrt
