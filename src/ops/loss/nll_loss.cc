// NegativeLogLikelihoodLoss(input, target, weight?): see nll.h.
#include "ops/loss/nll.h"

namespace twinrt {
namespace {

class NllLossKernel final : public OpKernel {
 public:
  explicit NllLossKernel(LossAttrs attrs) : attrs_(attrs) {}

  Status infer(InferContext& ctx) const override {
    infer_loss_output(ctx, attrs_);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    static const char* const kNames[3] = {"input", "target", "weight"};
    ASSIGN_OR_RETURN(const Tensor* input, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* target, ctx.tensor_input(1));
    const Tensor* weight = nullptr;
    if (ctx.has_input(2)) {
      ASSIGN_OR_RETURN(weight, ctx.tensor_input(2));
    }
    TRY(check_loss_inputs(*input, *target, weight, kNames));
    return nll_loss(ctx, *input, *target, weight, attrs_);
  }

 private:
  LossAttrs attrs_;
};

Result<std::unique_ptr<OpKernel>> create_nll_loss(const KernelInit& init) {
  if (init.num_inputs() < 2 || init.num_inputs() > 3 || !init.has_input(0) || !init.has_input(1) ||
      init.num_outputs() != 1)
    return init.error("expects 2 or 3 inputs (input, target, weight) and 1 output, got " +
                      std::to_string(init.num_inputs()) + " and " + std::to_string(init.num_outputs()));
  ASSIGN_OR_RETURN(LossAttrs attrs, parse_loss_attrs(init));
  return make_kernel<NllLossKernel>(attrs);
}

}  // namespace

TWINRT_REGISTER_OP("NegativeLogLikelihoodLoss", 12, create_nll_loss);

}  // namespace twinrt
