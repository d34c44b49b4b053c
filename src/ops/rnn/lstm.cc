// LSTM (gates i, o, f, c in W, R and B; peepholes P = i, o, f; f = Sigmoid, g = h = Tanh
// by default):
//   it = f(Xt*Wi^T + Ht-1*Ri^T + Pi (.) Ct-1 + Wbi + Rbi)
//   ft = f(Xt*Wf^T + Ht-1*Rf^T + Pf (.) Ct-1 + Wbf + Rbf)     (1 - it with input_forget)
//   ct = g(Xt*Wc^T + Ht-1*Rc^T + Wbc + Rbc)
//   Ct = ft (.) Ct-1 + it (.) ct
//   ot = f(Xt*Wo^T + Ht-1*Ro^T + Po (.) Ct + Wbo + Rbo)
//   Ht = ot (.) h(Ct)
#include "ops/rnn/recurrence.h"

namespace twinrt {
namespace {

enum LstmGate : int64_t { kInputGate = 0, kOutputGate = 1, kForgetGate = 2, kCellGate = 3 };

template <class S, class Acc>
struct LstmCell {
  const RnnSpec& spec;
  bool input_forget;

  size_t scratch_size() const { return 0; }

  void step(const RnnOperands<S>& op, int64_t d, const S* x, const S* h, const S* c, S* h_out, S* c_out, S*) const {
    const int64_t hidden = spec.hidden, in = op.input;
    const S* w = op.w.template data<S>() + d * 4 * hidden * in;
    const S* r = op.r.template data<S>() + d * 4 * hidden * hidden;
    const S* wb = op.bias.template data<S>() + d * 8 * hidden;
    const S* rb = wb + 4 * hidden;
    const S* p = op.peephole.template data<S>() + d * 3 * hidden;  // i, o, f
    const RnnActivation& f = spec.activation(d, 0);
    const RnnActivation& g = spec.activation(d, 1);
    const RnnActivation& hact = spec.activation(d, 2);
    // Pre-activation of gate row (gate, j) without peephole.
    auto gate_input = [&](int64_t gate, int64_t j) {
      const int64_t row = gate * hidden + j;
      return dot_product<Acc>(x, w + row * in, in) + dot_product<Acc>(h, r + row * hidden, hidden) +
             static_cast<Acc>(wb[row]) + static_cast<Acc>(rb[row]);
    };
    auto activate = [&](const RnnActivation& act, Acc pre) {
      return static_cast<S>(act.apply(spec.clipped(static_cast<double>(pre))));
    };
    for (int64_t j = 0; j < hidden; ++j) {
      const S i = activate(f, gate_input(kInputGate, j) + static_cast<Acc>(p[j]) * static_cast<Acc>(c[j]));
      const S forget = input_forget
                           ? S(1) - i
                           : activate(f, gate_input(kForgetGate, j) + static_cast<Acc>(p[2 * hidden + j]) * static_cast<Acc>(c[j]));
      const S candidate = activate(g, gate_input(kCellGate, j));
      const S cell = forget * c[j] + i * candidate;
      const S o = activate(f, gate_input(kOutputGate, j) + static_cast<Acc>(p[hidden + j]) * static_cast<Acc>(cell));
      c_out[j] = cell;
      h_out[j] = o * static_cast<S>(hact.apply(static_cast<double>(cell)));
    }
  }
};

class LstmKernel final : public OpKernel {
 public:
  LstmKernel(RnnSpec spec, bool input_forget) : spec_(std::move(spec)), input_forget_(input_forget) {}
  Status infer(InferContext& ctx) const override {
    infer_rnn_outputs(spec_, ctx);
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    return with_rnn_types(ctx, [&]<class S, class Acc>() -> Status {
      ASSIGN_OR_RETURN(RnnOperands<S> op, load_rnn_operands<S>(ctx, spec_));
      return run_recurrence(ctx, spec_, op, LstmCell<S, Acc>{spec_, input_forget_});
    });
  }

 private:
  RnnSpec spec_;
  bool input_forget_;
};

Result<std::unique_ptr<OpKernel>> create_lstm(const KernelInit& init) {
  ASSIGN_OR_RETURN(RnnSpec spec, parse_rnn_spec(init, 4, {"Sigmoid", "Tanh", "Tanh"}, true));
  ASSIGN_OR_RETURN(int64_t input_forget, init.attr_int("input_forget", 0));
  return make_kernel<LstmKernel>(std::move(spec), input_forget != 0);
}

}  // namespace

TWINRT_REGISTER_OP("LSTM", 1, create_lstm);

}  // namespace twinrt
