// EyeLike: a 2-D tensor of the input's shape with ones on diagonal k, zeros elsewhere;
// the type is the `dtype` attribute or else the input's.
#include <algorithm>

#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

class EyeLikeKernel final : public OpKernel {
 public:
  EyeLikeKernel(std::optional<DataType> dtype, int64_t k) : dtype_(dtype), k_(k) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* in = ctx.shape(0);
    ctx.set_output(0, dtype_.value_or(ctx.dtype(0)), in ? std::optional<ir::Shape>(*in) : std::nullopt);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    if (x->rank() != 2)
      return invalid_argument("EyeLike input must be 2-D, got shape " + shape_to_string(x->shape()));
    const DataType dt = dtype_.value_or(x->dtype());
    if (dt == DataType::kString) return not_implemented("EyeLike cannot produce strings");
    ASSIGN_OR_RETURN(Tensor one, tensor_ops::scalar_of_type(dt, 1));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, dt, x->shape()));
    const int64_t rows = x->dim(0), cols = x->dim(1);
    // Row i holds its one at column i + k, when that column exists.
    for (int64_t i = std::max<int64_t>(0, -k_); i < rows && i + k_ < cols; ++i)
      tensor_ops::copy_elements(dt, tensor_ops::element_ptr(*y, i * cols + i + k_), one.raw(), 1);
    return Status::ok();
  }

 private:
  std::optional<DataType> dtype_;
  int64_t k_;
};

Result<std::unique_ptr<OpKernel>> create_eye_like(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("EyeLike takes one input and one output");
  std::optional<DataType> dtype;
  if (init.has_attr("dtype")) {
    ASSIGN_OR_RETURN(int64_t code, init.attr_int("dtype", 0));
    if (code < INT32_MIN || code > INT32_MAX || !dtype_is_valid(static_cast<int32_t>(code)))
      return init.error("dtype " + std::to_string(code) + " is not a valid data type");
    dtype = static_cast<DataType>(code);
  }
  ASSIGN_OR_RETURN(int64_t k, init.attr_int("k", 0));
  if (k < -INT32_MAX || k > INT32_MAX) return init.error("k " + std::to_string(k) + " is out of range");
  return make_kernel<EyeLikeKernel>(dtype, k);
}

}  // namespace

TWINRT_REGISTER_OP("EyeLike", 9, create_eye_like);

}  // namespace twinrt
