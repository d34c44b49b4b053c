// Squeeze and Unsqueeze: remove or insert size-1 dimensions. The output is a view.
// Axes are an attribute before opset 13 and an input from 13 on.
#include <algorithm>

#include "ops/op.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

using tensor_ops::constant_ints;
using tensor_ops::normalize_axes;

bool contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// Where the axes come from: a fixed list (attribute) or input 1.
struct AxesSource {
  std::optional<std::vector<int64_t>> fixed;
  bool from_input = false;

  // The axes at infer time, when known.
  std::optional<std::vector<int64_t>> at_infer(const InferContext& ctx) const {
    if (fixed) return fixed;
    if (from_input) return constant_ints(ctx.constant_inputs, 1);
    return std::nullopt;
  }
  // The axes at run time; nullopt when none are given.
  Result<std::optional<std::vector<int64_t>>> at_run(const RunContext& ctx, const char* op) const {
    if (fixed) return fixed;
    if (!from_input || !ctx.has_input(1)) return std::optional<std::vector<int64_t>>{};
    ASSIGN_OR_RETURN(auto axes, tensor_ops::input_ints(ctx, 1, std::string(op) + " 'axes' input"));
    return std::optional<std::vector<int64_t>>(std::move(axes));
  }
};

Result<AxesSource> read_axes_source(const KernelInit& init) {
  AxesSource src;
  if (init.opset < 13) {
    if (init.has_attr("axes")) {
      ASSIGN_OR_RETURN(src.fixed, init.attr_ints("axes"));
    }
  } else {
    src.from_input = init.has_input(1);
  }
  return src;
}

class SqueezeKernel final : public OpKernel {
 public:
  explicit SqueezeKernel(AxesSource axes) : axes_(std::move(axes)) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0));
    const ir::Shape* in = ctx.shape(0);
    if (!in) return Status::ok();
    const int64_t rank = static_cast<int64_t>(in->size());
    auto axes = axes_.at_infer(ctx);
    if (!axes && axes_.from_input) {  // axes known only at run time; a non-zero count gives the rank
      auto n = tensor_ops::static_length(ctx, 1);
      if (n && *n > 0 && *n <= rank) ctx.set_output(0, ctx.dtype(0), ir::Shape(static_cast<size_t>(rank - *n)));
      return Status::ok();
    }
    if (!axes || axes->empty()) {  // no (or empty) axes: every dim of size 1 goes
      ir::Shape out;
      for (const ir::Dim& d : *in) {
        if (!d.known()) return Status::ok();  // cannot tell whether it is 1
        if (d.value != 1) out.push_back(d);
      }
      ctx.set_output(0, ctx.dtype(0), std::move(out));
      return Status::ok();
    }
    ASSIGN_OR_RETURN(auto norm, normalize_axes(*axes, rank, "Squeeze axis"));
    ir::Shape out;
    for (int64_t d = 0; d < rank; ++d) {
      const ir::Dim& dim = (*in)[static_cast<size_t>(d)];
      if (!contains(norm, d)) out.push_back(dim);
      else if (dim.known() && dim.value != 1)
        return invalid_model("cannot squeeze axis " + std::to_string(d) + " of shape " +
                             ir::shape_to_string(*in) + ": its size is not 1");
    }
    ctx.set_output(0, ctx.dtype(0), std::move(out));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(auto axes, axes_.at_run(ctx, "Squeeze"));
    std::vector<int64_t> out;
    if (!axes || axes->empty()) {
      for (int64_t d : x->shape())
        if (d != 1) out.push_back(d);
    } else {
      ASSIGN_OR_RETURN(auto norm, normalize_axes(*axes, x->rank(), "Squeeze axis"));
      for (int64_t d = 0; d < x->rank(); ++d) {
        if (!contains(norm, d)) out.push_back(x->dim(d));
        else if (x->dim(d) != 1)
          return invalid_argument("cannot squeeze axis " + std::to_string(d) + " of shape " +
                                  shape_to_string(x->shape()) + ": its size is not 1");
      }
    }
    ASSIGN_OR_RETURN(Tensor y, x->reshaped(std::move(out)));
    ctx.set_output(0, Value::of(std::move(y)));
    return Status::ok();
  }

 private:
  AxesSource axes_;
};

// Positions of the inserted 1s in the output of rank in_rank + axes.size().
Result<std::vector<int64_t>> unsqueeze_positions(const std::vector<int64_t>& axes, int64_t in_rank) {
  return normalize_axes(axes, in_rank + static_cast<int64_t>(axes.size()), "Unsqueeze axis");
}

template <class D>
std::vector<D> insert_ones(const std::vector<D>& in, const std::vector<int64_t>& positions, const D& one) {
  std::vector<D> out;
  auto next = in.begin();
  const int64_t rank = static_cast<int64_t>(in.size() + positions.size());
  for (int64_t d = 0; d < rank; ++d) out.push_back(contains(positions, d) ? one : *next++);
  return out;
}

class UnsqueezeKernel final : public OpKernel {
 public:
  explicit UnsqueezeKernel(AxesSource axes) : axes_(std::move(axes)) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0));
    const ir::Shape* in = ctx.shape(0);
    auto axes = axes_.at_infer(ctx);
    if (!in) return Status::ok();
    if (!axes) {
      if (auto n = tensor_ops::static_length(ctx, 1))
        ctx.set_output(0, ctx.dtype(0), ir::Shape(in->size() + static_cast<size_t>(*n)));
      return Status::ok();
    }
    ASSIGN_OR_RETURN(auto pos, unsqueeze_positions(*axes, static_cast<int64_t>(in->size())));
    ctx.set_output(0, ctx.dtype(0), insert_ones(*in, pos, ir::Dim::of(1)));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(auto axes, axes_.at_run(ctx, "Unsqueeze"));
    if (!axes) return invalid_argument("Unsqueeze needs axes");
    ASSIGN_OR_RETURN(auto pos, unsqueeze_positions(*axes, x->rank()));
    ASSIGN_OR_RETURN(Tensor y, x->reshaped(insert_ones(x->shape(), pos, int64_t{1})));
    ctx.set_output(0, Value::of(std::move(y)));
    return Status::ok();
  }

 private:
  AxesSource axes_;
};

Result<std::unique_ptr<OpKernel>> create_squeeze(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("Squeeze takes data and one output");
  ASSIGN_OR_RETURN(AxesSource axes, read_axes_source(init));
  return make_kernel<SqueezeKernel>(std::move(axes));
}

Result<std::unique_ptr<OpKernel>> create_unsqueeze(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("Unsqueeze takes data and one output");
  ASSIGN_OR_RETURN(AxesSource axes, read_axes_source(init));
  if (!axes.fixed && !axes.from_input)
    return init.error(init.opset < 13 ? "Unsqueeze needs the 'axes' attribute" : "Unsqueeze needs the 'axes' input");
  return make_kernel<UnsqueezeKernel>(std::move(axes));
}

}  // namespace

TWINRT_REGISTER_OP("Squeeze", 1, create_squeeze);
TWINRT_REGISTER_OP("Unsqueeze", 1, create_unsqueeze);

}  // namespace twinrt
