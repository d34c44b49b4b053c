// OneHot: a new axis of length `depth` holding values[1] ("on") at each index and
// values[0] ("off") elsewhere. Negative indices count from depth; indices outside
// [-depth, depth) give an all-off row, as the spec says.
#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

class OneHotKernel final : public OpKernel {
 public:
  explicit OneHotKernel(int64_t axis) : axis_(axis) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(2));
    const ir::Shape* in = ctx.shape(0);
    if (!in) return Status::ok();
    const int64_t rank = static_cast<int64_t>(in->size()) + 1;
    ASSIGN_OR_RETURN(int64_t axis, tensor_ops::normalize_axis(axis_, rank, "OneHot axis"));
    ir::Dim depth;
    if (ctx.constant_inputs.size() > 1 && ctx.constant_inputs[1]) {
      auto d = depth_of(*ctx.constant_inputs[1]);
      if (d.is_ok()) depth = ir::Dim::of(*d);
    }
    ir::Shape out = *in;
    out.insert(out.begin() + axis, depth);
    ctx.set_output(0, ctx.dtype(2), std::move(out));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* indices, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* depth_t, ctx.tensor_input(1));
    ASSIGN_OR_RETURN(const Tensor* values, ctx.tensor_input(2));
    if (values->numel() != 2)
      return invalid_argument("OneHot values must hold [off, on], got shape " + shape_to_string(values->shape()));
    ASSIGN_OR_RETURN(int64_t depth, depth_of(*depth_t));
    ASSIGN_OR_RETURN(int64_t axis, tensor_ops::normalize_axis(axis_, indices->rank() + 1, "OneHot axis"));
    ASSIGN_OR_RETURN(auto idx, tensor_ops::read_as_ints(*indices, "OneHot index"));
    std::vector<int64_t> shape = indices->shape();
    shape.insert(shape.begin() + axis, depth);
    const DataType dt = values->dtype();
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, dt, shape));
    TRY(tensor_ops::fill_elements(dt, y->raw(), values->raw(), y->numel()));
    // indices viewed as [outer, inner] around the new axis: out[o, index, i] = on.
    int64_t inner = 1;
    for (int64_t d = axis; d < indices->rank(); ++d) inner *= indices->dim(d);
    const void* on = tensor_ops::element_ptr(*values, 1);
    for (size_t n = 0; n < idx.size(); ++n) {
      int64_t k = idx[n] < 0 ? idx[n] + depth : idx[n];
      if (k < 0 || k >= depth) continue;
      const int64_t o = static_cast<int64_t>(n) / inner, i = static_cast<int64_t>(n) % inner;
      tensor_ops::copy_elements(dt, tensor_ops::element_ptr(*y, (o * depth + k) * inner + i), on, 1);
    }
    return Status::ok();
  }

 private:
  static Result<int64_t> depth_of(const Tensor& t) {
    if (t.numel() != 1)
      return invalid_argument("OneHot depth must hold one value, got shape " + shape_to_string(t.shape()));
    ASSIGN_OR_RETURN(auto v, tensor_ops::read_as_ints(t, "OneHot depth"));
    if (v[0] < 1) return invalid_argument("OneHot depth must be positive, got " + std::to_string(v[0]));
    return v[0];
  }
  int64_t axis_;
};

Result<std::unique_ptr<OpKernel>> create_one_hot(const KernelInit& init) {
  if (!init.has_input(0) || !init.has_input(1) || !init.has_input(2) || init.num_outputs() != 1)
    return init.error("OneHot takes indices, depth, values and one output");
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", -1));
  return make_kernel<OneHotKernel>(axis);
}

}  // namespace

TWINRT_REGISTER_OP("OneHot", 9, create_one_hot);

}  // namespace twinrt
