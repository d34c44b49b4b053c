// Shape (the input's dims as int64, optionally a [start, end) range from opset 15) and
// Size (the element count as an int64 scalar).
#include <algorithm>

#include "ops/op.h"

namespace twinrt {
namespace {

class ShapeKernel final : public OpKernel {
 public:
  ShapeKernel(int64_t start, std::optional<int64_t> end) : start_(start), end_(end) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* in = ctx.shape(0);
    if (!in) {
      ctx.set_output(0, DataType::kInt64, ir::Shape(1));
      return Status::ok();
    }
    const auto [begin, end] = range(static_cast<int64_t>(in->size()));
    ctx.set_output(0, DataType::kInt64, std::vector<int64_t>{end - begin});
    if (auto dims = ctx.static_shape(0)) {
      ASSIGN_OR_RETURN(Tensor v, Tensor::from_vector<int64_t>({end - begin},
                                                              {dims->begin() + begin, dims->begin() + end}));
      ctx.output_values[0] = Value::of(std::move(v));
    }
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    const auto [begin, end] = range(x->rank());
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, DataType::kInt64, {end - begin}));
    std::copy(x->shape().begin() + begin, x->shape().begin() + end, y->data<int64_t>());
    return Status::ok();
  }

 private:
  // [start, end) clamped to [0, rank] as the spec says; empty when end <= start.
  std::pair<int64_t, int64_t> range(int64_t rank) const {
    const auto clamp = [rank](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank); };
    const int64_t begin = clamp(start_);
    const int64_t end = end_ ? clamp(*end_) : rank;
    return {begin, std::max(begin, end)};
  }
  int64_t start_;
  std::optional<int64_t> end_;
};

class SizeKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, DataType::kInt64, std::vector<int64_t>{});
    if (auto dims = ctx.static_shape(0)) {
      ASSIGN_OR_RETURN(Tensor v, Tensor::from_vector<int64_t>({}, {shape_numel(*dims)}));
      ctx.output_values[0] = Value::of(std::move(v));
    }
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, DataType::kInt64, {}));
    *y->data<int64_t>() = x->numel();
    return Status::ok();
  }
};

Result<std::unique_ptr<OpKernel>> create_shape(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("Shape takes one input and one output");
  ASSIGN_OR_RETURN(int64_t start, init.attr_int("start", 0));
  std::optional<int64_t> end;
  if (init.has_attr("end")) {
    ASSIGN_OR_RETURN(end, init.attr_int("end", 0));
  }
  return make_kernel<ShapeKernel>(start, end);
}

Result<std::unique_ptr<OpKernel>> create_size(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("Size takes one input and one output");
  return make_kernel<SizeKernel>();
}

}  // namespace

TWINRT_REGISTER_OP("Shape", 1, create_shape);
TWINRT_REGISTER_OP("Size", 1, create_size);

}  // namespace twinrt
