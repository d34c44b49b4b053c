// GRU (gates z, r, h in W, R and B; f = Sigmoid, g = Tanh by default):
//   zt = f(Xt*Wz^T + Ht-1*Rz^T + Wbz + Rbz)
//   rt = f(Xt*Wr^T + Ht-1*Rr^T + Wbr + Rbr)
//   ht = g(Xt*Wh^T + (rt (.) Ht-1)*Rh^T + Rbh + Wbh)      linear_before_reset = 0
//   ht = g(Xt*Wh^T + rt (.) (Ht-1*Rh^T + Rbh) + Wbh)      linear_before_reset != 0
//   Ht = (1 - zt) (.) ht + zt (.) Ht-1
#include "ops/rnn/recurrence.h"

namespace twinrt {
namespace {

template <class S, class Acc>
struct GruCell {
  const RnnSpec& spec;
  bool linear_before_reset;

  size_t scratch_size() const { return static_cast<size_t>(3 * spec.hidden); }  // z, r, r (.) h

  void step(const RnnOperands<S>& op, int64_t d, const S* x, const S* h, const S*, S* h_out, S*, S* scratch) const {
    const int64_t hidden = spec.hidden, in = op.input;
    const S* w = op.w.template data<S>() + d * 3 * hidden * in;
    const S* r = op.r.template data<S>() + d * 3 * hidden * hidden;
    const S* wb = op.bias.template data<S>() + d * 6 * hidden;
    const S* rb = wb + 3 * hidden;
    const RnnActivation& f = spec.activation(d, 0);
    const RnnActivation& g = spec.activation(d, 1);
    S* z = scratch;
    S* reset = scratch + hidden;
    S* reset_h = scratch + 2 * hidden;
    for (int64_t gate = 0; gate < 2; ++gate)  // z then r
      for (int64_t j = 0; j < hidden; ++j) {
        const int64_t row = gate * hidden + j;
        const Acc pre = dot_product<Acc>(x, w + row * in, in) + dot_product<Acc>(h, r + row * hidden, hidden) +
                        static_cast<Acc>(wb[row]) + static_cast<Acc>(rb[row]);
        (gate == 0 ? z : reset)[j] = static_cast<S>(f.apply(spec.clipped(static_cast<double>(pre))));
      }
    for (int64_t j = 0; j < hidden; ++j) reset_h[j] = reset[j] * h[j];
    for (int64_t j = 0; j < hidden; ++j) {
      const int64_t row = 2 * hidden + j;
      const Acc xw = dot_product<Acc>(x, w + row * in, in) + static_cast<Acc>(wb[row]);
      Acc pre;
      if (linear_before_reset) {
        const Acc hr = dot_product<Acc>(h, r + row * hidden, hidden) + static_cast<Acc>(rb[row]);
        pre = xw + static_cast<Acc>(reset[j]) * hr;
      } else {
        pre = xw + dot_product<Acc>(reset_h, r + row * hidden, hidden) + static_cast<Acc>(rb[row]);
      }
      const S candidate = static_cast<S>(g.apply(spec.clipped(static_cast<double>(pre))));
      h_out[j] = (S(1) - z[j]) * candidate + z[j] * h[j];
    }
  }
};

class GruKernel final : public OpKernel {
 public:
  GruKernel(RnnSpec spec, bool linear_before_reset) : spec_(std::move(spec)), linear_before_reset_(linear_before_reset) {}
  Status infer(InferContext& ctx) const override {
    infer_rnn_outputs(spec_, ctx);
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    return with_rnn_types(ctx, [&]<class S, class Acc>() -> Status {
      ASSIGN_OR_RETURN(RnnOperands<S> op, load_rnn_operands<S>(ctx, spec_));
      return run_recurrence(ctx, spec_, op, GruCell<S, Acc>{spec_, linear_before_reset_});
    });
  }

 private:
  RnnSpec spec_;
  bool linear_before_reset_;
};

Result<std::unique_ptr<OpKernel>> create_gru(const KernelInit& init) {
  ASSIGN_OR_RETURN(RnnSpec spec, parse_rnn_spec(init, 3, {"Sigmoid", "Tanh"}, false));
  ASSIGN_OR_RETURN(int64_t linear_before_reset, init.attr_int("linear_before_reset", 0));
  return make_kernel<GruKernel>(std::move(spec), linear_before_reset != 0);
}

}  // namespace

TWINRT_REGISTER_OP("GRU", 1, create_gru);

}  // namespace twinrt
