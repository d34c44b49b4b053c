// Max, Min, Sum, Mean over 1..N inputs with multidirectional broadcasting.
//
// The inputs are folded left to right into an accumulator of the output's shape:
// Max/Min in the compute type (exact; NaN in any input gives NaN), Sum/Mean in the
// accumulator type of the mode (double in reference mode), rounded once at the end.
#include <vector>

#include "ops/binary/binary_kernel.h"

namespace twinrt {
namespace {

enum class Fold { kMax, kMin, kSum, kMean };

class VariadicKernel final : public OpKernel {
 public:
  explicit VariadicKernel(Fold fold) : fold_(fold) {}

  Status infer(InferContext& ctx) const override {
    const DataType t = ctx.dtype(0);
    if (t == DataType::kUndefined) return Status::ok();
    std::vector<const ir::Shape*> shapes;
    for (size_t i = 0; i < ctx.input_types.size(); ++i) {
      if (!ctx.shape(i)) {
        ctx.set_output(0, t);
        return Status::ok();
      }
      shapes.push_back(ctx.shape(i));
    }
    ctx.set_output(0, t, broadcast_symbolic(shapes));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    std::vector<const Tensor*> inputs;
    for (size_t i = 0; i < ctx.num_inputs(); ++i) {
      ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(i));
      if (!inputs.empty() && t->dtype() != inputs[0]->dtype())
        return invalid_argument("input " + std::to_string(i) + " is " + dtype_name(t->dtype()) +
                                ", expected " + dtype_name(inputs[0]->dtype()) + " like input 0");
      inputs.push_back(t);
    }
    ASSIGN_OR_RETURN(std::vector<int64_t> out_shape, broadcast_output_shape(inputs));
    const bool reference = ctx.mode() == Mode::kReference;
    auto go = [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      if (fold_ == Fold::kMax || fold_ == Fold::kMin) return run_typed<T, compute_t<T>>(ctx, inputs, out_shape);
      if (reference) return run_typed<T, accum_t<T, true>>(ctx, inputs, out_shape);
      return run_typed<T, accum_t<T, false>>(ctx, inputs, out_shape);
    };
    if (fold_ == Fold::kMax || fold_ == Fold::kMin) return dispatch<kAllNumeric>(inputs[0]->dtype(), go);
    return dispatch<kFloats>(inputs[0]->dtype(), go);
  }

 private:
  template <class T, class Acc>
  Status run_typed(RunContext& ctx, const std::vector<const Tensor*>& inputs,
                   const std::vector<int64_t>& out_shape) const {
    ASSIGN_OR_RETURN(Tensor * out, ctx.output_for_overwrite(0, dtype_of<T>(), out_shape));
    std::vector<Acc> acc(static_cast<size_t>(out->numel()));
    auto fold_in = [&](const Tensor& in, auto combine) {
      BroadcastRows plan(out_shape, {out_shape, in.shape()});
      apply_rows(plan, ctx.pool(), acc.data(), in.data<T>(), acc.data(),
                 [combine](Acc a, T v) { return combine(a, static_cast<Acc>(load(v))); });
    };
    fold_in(*inputs[0], [](Acc, Acc x) { return x; });
    for (size_t k = 1; k < inputs.size(); ++k) {
      if (fold_ == Fold::kMax) fold_in(*inputs[k], [](Acc a, Acc x) { return nan_max(a, x); });
      else if (fold_ == Fold::kMin) fold_in(*inputs[k], [](Acc a, Acc x) { return nan_min(a, x); });
      else fold_in(*inputs[k], [](Acc a, Acc x) { return arith_add(a, x); });
    }
    T* y = out->data<T>();
    const Acc n = static_cast<Acc>(inputs.size());
    for (size_t i = 0; i < acc.size(); ++i)
      y[i] = store<T>(static_cast<compute_t<T>>(fold_ == Fold::kMean ? acc[i] / n : acc[i]));
    return Status::ok();
  }

  Fold fold_;
};

template <Fold F>
Result<std::unique_ptr<OpKernel>> create_variadic(const KernelInit& init) {
  if (init.num_inputs() < 1 || init.num_outputs() != 1)
    return init.error("expects at least 1 input and 1 output, got " + std::to_string(init.num_inputs()) +
                      " and " + std::to_string(init.num_outputs()));
  for (size_t i = 0; i < init.num_inputs(); ++i)
    if (!init.has_input(i)) return init.error("input " + std::to_string(i) + " is empty");
  return make_kernel<VariadicKernel>(F);
}

}  // namespace

TWINRT_REGISTER_OP("Max", 1, create_variadic<Fold::kMax>);
TWINRT_REGISTER_OP("Min", 1, create_variadic<Fold::kMin>);
TWINRT_REGISTER_OP("Sum", 1, create_variadic<Fold::kSum>);
TWINRT_REGISTER_OP("Mean", 1, create_variadic<Fold::kMean>);

}  // namespace twinrt
