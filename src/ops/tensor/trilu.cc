// Trilu: keeps the upper (j - i >= k) or lower (j - i <= k) triangle of the last two
// dims and zeroes the rest. Kept elements of a row are one contiguous run.
#include <algorithm>

#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

class TriluKernel final : public OpKernel {
 public:
  explicit TriluKernel(bool upper) : upper_(upper) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* in = ctx.shape(0);
    ctx.set_output(0, ctx.dtype(0), in ? std::optional<ir::Shape>(*in) : std::nullopt);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    if (x->rank() < 2) return invalid_argument("Trilu input must have rank >= 2, got " + shape_to_string(x->shape()));
    int64_t k = 0;
    if (ctx.has_input(1)) {
      ASSIGN_OR_RETURN(const Tensor* kt, ctx.tensor_input(1));
      ASSIGN_OR_RETURN(k, tensor_ops::read_int_scalar(*kt, "Trilu k"));
    }
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), x->shape()));  // zero-filled
    const int64_t rows = x->dim(x->rank() - 2), cols = x->dim(x->rank() - 1);
    const int64_t matrices = rows * cols == 0 ? 0 : x->numel() / (rows * cols);
    // Clamp k so the column bounds below cannot overflow.
    k = std::clamp<int64_t>(k, -rows - 1, cols + 1);
    for (int64_t m = 0; m < matrices; ++m)
      for (int64_t i = 0; i < rows; ++i) {
        const int64_t first = upper_ ? std::clamp<int64_t>(i + k, 0, cols) : 0;
        const int64_t last = upper_ ? cols : std::clamp<int64_t>(i + k + 1, 0, cols);
        const int64_t at = (m * rows + i) * cols + first;
        if (last > first)
          tensor_ops::copy_elements(x->dtype(), tensor_ops::element_ptr(*y, at), tensor_ops::element_ptr(*x, at),
                                    last - first);
      }
    return Status::ok();
  }

 private:
  bool upper_;
};

Result<std::unique_ptr<OpKernel>> create_trilu(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("Trilu takes input, optional k and one output");
  ASSIGN_OR_RETURN(int64_t upper, init.attr_int("upper", 1));
  return make_kernel<TriluKernel>(upper != 0);
}

}  // namespace

TWINRT_REGISTER_OP("Trilu", 14, create_trilu);

}  // namespace twinrt
