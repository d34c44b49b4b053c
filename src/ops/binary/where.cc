// Where: out = condition ? X : Y, all three broadcast together; X and Y of any type.
#include "ops/binary/binary_kernel.h"

namespace twinrt {
namespace {

class WhereKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    const DataType t = ctx.dtype(1);
    if (t == DataType::kUndefined) return Status::ok();
    const ir::Shape *c = ctx.shape(0), *x = ctx.shape(1), *y = ctx.shape(2);
    if (c && x && y) ctx.set_output(0, t, broadcast_symbolic({c, x, y}));
    else ctx.set_output(0, t);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* cond, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(1));
    ASSIGN_OR_RETURN(const Tensor* y, ctx.tensor_input(2));
    if (cond->dtype() != DataType::kBool)
      return invalid_argument(std::string("condition must be bool, got ") + dtype_name(cond->dtype()));
    if (x->dtype() != y->dtype())
      return invalid_argument(std::string("X and Y must have the same type, got ") +
                              dtype_name(x->dtype()) + " and " + dtype_name(y->dtype()));
    ASSIGN_OR_RETURN(std::vector<int64_t> out_shape, broadcast_output_shape({cond, x, y}));
    return dispatch<kAllTypes>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      ASSIGN_OR_RETURN(Tensor * out, ctx.output_for_overwrite(0, x->dtype(), out_shape));
      BroadcastRows plan(out_shape, {cond->shape(), x->shape(), y->shape()});
      const bool* c = cond->data<bool>();
      const T *px = x->data<T>(), *py = y->data<T>();
      T* po = out->data<T>();
      const int64_t n = plan.row_len(), sc = plan.step(0), sx = plan.step(1), sy = plan.step(2);
      for_each_row_parallel(plan, ctx.pool(), [&](int64_t out_off, const int64_t* in) {
        for (int64_t i = 0; i < n; ++i)
          po[out_off + i] = c[in[0] + i * sc] ? px[in[1] + i * sx] : py[in[2] + i * sy];
      });
      return Status::ok();
    });
  }
};

Result<std::unique_ptr<OpKernel>> create_where(const KernelInit& init) {
  if (init.num_inputs() != 3 || init.num_outputs() != 1)
    return init.error("expects 3 inputs (condition, X, Y) and 1 output, got " +
                      std::to_string(init.num_inputs()) + " and " + std::to_string(init.num_outputs()));
  return make_kernel<WhereKernel>();
}

}  // namespace

TWINRT_REGISTER_OP("Where", 9, create_where);

}  // namespace twinrt
