// SoftmaxCrossEntropyLoss(scores, labels, weights?) -> (output, log_prob?):
// log_prob = LogSoftmax(scores) along the class axis 1, then the NLL loss of nll.h on it.
#include "ops/loss/nll.h"
#include "ops/softmax/softmax_rows.h"

namespace twinrt {
namespace {

class SoftmaxCrossEntropyKernel final : public OpKernel {
 public:
  SoftmaxCrossEntropyKernel(LossAttrs attrs, Isa isa) : attrs_(attrs), isa_(isa) {}

  Status infer(InferContext& ctx) const override {
    infer_loss_output(ctx, attrs_);
    if (ctx.output_types.size() > 1) ctx.same_as_input(1, 0);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    static const char* const kNames[3] = {"scores", "labels", "weights"};
    ASSIGN_OR_RETURN(const Tensor* scores, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* labels, ctx.tensor_input(1));
    const Tensor* weights = nullptr;
    if (ctx.has_input(2)) {
      ASSIGN_OR_RETURN(weights, ctx.tensor_input(2));
    }
    TRY(check_loss_inputs(*scores, *labels, weights, kNames));

    Tensor scratch;
    Tensor* log_prob = &scratch;
    if (ctx.output_requested(1)) {
      ASSIGN_OR_RETURN(log_prob, ctx.output(1, scores->dtype(), scores->shape()));
    } else {
      ASSIGN_OR_RETURN(scratch, Tensor::create(scores->dtype(), scores->shape()));
    }
    TRY(dispatch<kFloats>(scores->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      softmax_rows(scores->data<T>(), log_prob->data<T>(), axis_layout(scores->shape(), 1),
                   SoftmaxKind::kLogSoftmax, ctx.mode(), isa_, ctx.pool());
      return Status::ok();
    }));
    return nll_loss(ctx, *log_prob, *labels, weights, attrs_);
  }

 private:
  LossAttrs attrs_;
  Isa isa_;
};

Result<std::unique_ptr<OpKernel>> create_softmax_cross_entropy(const KernelInit& init) {
  if (init.num_inputs() < 2 || init.num_inputs() > 3 || !init.has_input(0) || !init.has_input(1) ||
      init.num_outputs() < 1 || init.num_outputs() > 2)
    return init.error("expects 2 or 3 inputs (scores, labels, weights) and 1 or 2 outputs, got " +
                      std::to_string(init.num_inputs()) + " and " + std::to_string(init.num_outputs()));
  ASSIGN_OR_RETURN(LossAttrs attrs, parse_loss_attrs(init));
  return make_kernel<SoftmaxCrossEntropyKernel>(attrs, init.isa);
}

}  // namespace

TWINRT_REGISTER_OP("SoftmaxCrossEntropyLoss", 12, create_softmax_cross_entropy);

}  // namespace twinrt
