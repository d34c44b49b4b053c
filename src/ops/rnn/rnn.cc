// RNN: Ht = f(Xt*W^T + Ht-1*R^T + Wb + Rb), f = Tanh by default.
#include "ops/rnn/recurrence.h"

namespace twinrt {
namespace {

template <class S, class Acc>
struct RnnCell {
  const RnnSpec& spec;

  size_t scratch_size() const { return 0; }

  void step(const RnnOperands<S>& op, int64_t d, const S* x, const S* h, const S*, S* h_out, S*, S*) const {
    const int64_t hidden = spec.hidden;
    const S* w = op.w.template data<S>() + d * hidden * op.input;
    const S* r = op.r.template data<S>() + d * hidden * hidden;
    const S* wb = op.bias.template data<S>() + d * 2 * hidden;
    const S* rb = wb + hidden;
    const RnnActivation& f = spec.activation(d, 0);
    for (int64_t j = 0; j < hidden; ++j) {
      const Acc pre = dot_product<Acc>(x, w + j * op.input, op.input) + dot_product<Acc>(h, r + j * hidden, hidden) +
                      static_cast<Acc>(wb[j]) + static_cast<Acc>(rb[j]);
      h_out[j] = static_cast<S>(f.apply(spec.clipped(static_cast<double>(pre))));
    }
  }
};

class RnnKernel final : public OpKernel {
 public:
  explicit RnnKernel(RnnSpec spec) : spec_(std::move(spec)) {}
  Status infer(InferContext& ctx) const override {
    infer_rnn_outputs(spec_, ctx);
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    return with_rnn_types(ctx, [&]<class S, class Acc>() -> Status {
      ASSIGN_OR_RETURN(RnnOperands<S> op, load_rnn_operands<S>(ctx, spec_));
      return run_recurrence(ctx, spec_, op, RnnCell<S, Acc>{spec_});
    });
  }

 private:
  RnnSpec spec_;
};

Result<std::unique_ptr<OpKernel>> create_rnn(const KernelInit& init) {
  ASSIGN_OR_RETURN(RnnSpec spec, parse_rnn_spec(init, 1, {"Tanh"}, false));
  return make_kernel<RnnKernel>(std::move(spec));
}

}  // namespace

TWINRT_REGISTER_OP("RNN", 1, create_rnn);

}  // namespace twinrt
