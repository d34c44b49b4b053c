// Bernoulli: output 1 with probability p (the input element), else 0. See
// random_source.h for how the numbers are drawn.
#include "ops/random/random_source.h"

namespace twinrt {
namespace {

class BernoulliKernel final : public OpKernel {
 public:
  BernoulliKernel(RandomSource source, DataType dtype) : source_(std::move(source)), dtype_(dtype) {}

  Status infer(InferContext& ctx) const override {
    const DataType dtype = dtype_ != DataType::kUndefined ? dtype_ : ctx.dtype(0);
    if (const ir::Shape* s = ctx.shape(0)) ctx.set_output(0, dtype, *s);
    else ctx.set_output(0, dtype);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* p, ctx.tensor_input(0));
    const DataType out_dtype = dtype_ != DataType::kUndefined ? dtype_ : p->dtype();
    ASSIGN_OR_RETURN(Tensor* out, ctx.output(0, out_dtype, p->shape()));
    std::vector<uint8_t> ones(static_cast<size_t>(p->numel()));
    TRY(dispatch<kF32 | kF64 | kF16>(p->dtype(), [&](auto* tag) -> Status {
      using T = std::remove_pointer_t<decltype(tag)>;
      const RandomDraws draws = source_.next_run();
      for (int64_t i = 0; i < p->numel(); ++i)
        ones[static_cast<size_t>(i)] = draws.uniform(static_cast<uint64_t>(i)) < cast_to_double(p->data<T>()[i]);
      return Status::ok();
    }));
    return dispatch<kAllNumeric | kBoolT>(out_dtype, [&](auto* tag) -> Status {
      using T = std::remove_pointer_t<decltype(tag)>;
      T* y = out->data<T>();
      for (size_t i = 0; i < ones.size(); ++i) y[i] = cast_from_double<T>(ones[i]);
      return Status::ok();
    });
  }

 private:
  RandomSource source_;
  DataType dtype_;  // undefined: the input's type
};

Result<std::unique_ptr<OpKernel>> create_bernoulli(const KernelInit& init) {
  if (init.num_inputs() != 1 || !init.has_input(0)) return init.error("takes exactly one input");
  ASSIGN_OR_RETURN(RandomSource source, RandomSource::from_node(init));
  ASSIGN_OR_RETURN(DataType dtype, (dtype_attribute<kAllNumeric | kBoolT>(init, DataType::kUndefined)));
  return make_kernel<BernoulliKernel>(std::move(source), dtype);
}

}  // namespace

TWINRT_REGISTER_OP("Bernoulli", 15, create_bernoulli);

}  // namespace twinrt
