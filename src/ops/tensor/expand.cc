// Expand: broadcasts the input against a shape (both ways, as numpy does).
#include <algorithm>

#include "ops/common/broadcast.h"
#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

class ExpandKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0));
    const ir::Shape* in = ctx.shape(0);
    if (!in) return Status::ok();
    if (auto target = tensor_ops::constant_ints(ctx.constant_inputs, 1)) {
      for (int64_t d : *target)
        if (d < 0) return invalid_model("Expand shape " + shape_to_string(*target) + " has a negative dim");
      ir::Shape t = ir::shape_of(*target);
      ctx.set_output(0, ctx.dtype(0), broadcast_symbolic({in, &t}));
    } else if (auto len = tensor_ops::static_length(ctx, 1)) {
      // Unknown target values: an input dim other than 1 must survive as it is.
      const size_t rank = std::max(in->size(), static_cast<size_t>(*len));
      ir::Shape out(rank);
      for (size_t i = 0; i < in->size(); ++i) {
        const ir::Dim& d = (*in)[i];
        if (d.known() && d.value != 1) out[rank - in->size() + i] = d;
      }
      ctx.set_output(0, ctx.dtype(0), std::move(out));
    }
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(auto target, tensor_ops::input_ints(ctx, 1, "Expand 'shape' input"));
    for (int64_t d : target)
      if (d < 0) return invalid_argument("Expand shape " + shape_to_string(target) + " has a negative dim");
    ASSIGN_OR_RETURN(auto out_shape, broadcast_shapes({x->shape(), target}));
    if (out_shape == x->shape()) {  // nothing to broadcast: share the input
      ctx.set_output(0, *ctx.input_value(0));
      return Status::ok();
    }
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, x->dtype(), out_shape));  // every element copied
    return tensor_ops::copy_strided(x->dtype(), y->raw(), x->raw(), out_shape,
                                    broadcast_strides(x->shape(), out_shape));
  }
};

Result<std::unique_ptr<OpKernel>> create_expand(const KernelInit& init) {
  if (!init.has_input(0) || !init.has_input(1) || init.num_outputs() != 1)
    return init.error("Expand takes input, shape and one output");
  return make_kernel<ExpandKernel>();
}

}  // namespace

TWINRT_REGISTER_OP("Expand", 8, create_expand);

}  // namespace twinrt
