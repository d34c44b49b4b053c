// InstanceNormalization: each (image, channel) plane is normalized by its own mean and
// variance, then scaled and shifted per channel.
#include <cmath>

#include "ops/nn/compute_type.h"
#include "ops/nn/row_moments.h"
#include "ops/op.h"
#include "runtime/thread_pool.h"

namespace twinrt {
namespace {

class InstanceNormKernel final : public OpKernel {
 public:
  InstanceNormKernel(double epsilon, Mode mode, Isa isa)
      : epsilon_(epsilon), mode_(mode), rows_(kernels::f32_row_kernels(isa)) {}

  Status infer(InferContext& ctx) const override {
    ctx.same_as_input(0, 0);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* scale_t, ctx.tensor_input(1));
    ASSIGN_OR_RETURN(const Tensor* bias_t, ctx.tensor_input(2));
    if (x->rank() < 3) return invalid_argument("InstanceNormalization needs X [N, C, D...], got " + shape_to_string(x->shape()));
    const int64_t channels = x->dim(1);
    for (const Tensor* t : {scale_t, bias_t})
      if (t->rank() != 1 || t->dim(0) != channels)
        return invalid_argument("InstanceNormalization scale and B must have shape [" + std::to_string(channels) +
                                "], got " + shape_to_string(t->shape()));
    ASSIGN_OR_RETURN(std::vector<double> scale, nn::read_doubles(*scale_t, "scale"));
    ASSIGN_OR_RETURN(std::vector<double> bias, nn::read_doubles(*bias_t, "B"));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), x->shape()));
    return dispatch<kFloats>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      nn::ComputeInput<T> xv(*x);
      nn::ComputeOutput<T> yv(*y);
      if (mode_ == Mode::kReference) normalize<double>(ctx.pool(), xv.data(), yv.data(), *x, scale, bias);
      else normalize<nn::compute_t<T>>(ctx.pool(), xv.data(), yv.data(), *x, scale, bias);
      yv.commit();
      return Status::ok();
    });
  }

 private:
  template <class Acc, class C>
  void normalize(ThreadPool& pool, const C* x, C* y, const Tensor& xt, const std::vector<double>& scale,
                 const std::vector<double>& bias) const {
    const int64_t channels = xt.dim(1), planes = xt.dim(0) * channels;
    const int64_t inner = planes > 0 ? xt.numel() / planes : 0;
    pool.parallel_for(planes, 1, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const C* xp = x + p * inner;
        C* yp = y + p * inner;
        Acc mean, var;
        nn::row_moments<Acc>(xp, inner, mean, var, rows_);
        const size_t c = static_cast<size_t>(p % channels);
        const Acc factor = static_cast<Acc>(scale[c]) / static_cast<Acc>(std::sqrt(var + static_cast<Acc>(epsilon_)));
        const Acc shift = static_cast<Acc>(bias[c]);
        for (int64_t i = 0; i < inner; ++i) yp[i] = static_cast<C>((static_cast<Acc>(xp[i]) - mean) * factor + shift);
      }
    });
  }

  double epsilon_;
  Mode mode_;
  const kernels::F32RowKernels& rows_;
};

Result<std::unique_ptr<OpKernel>> create_instance_norm(const KernelInit& init) {
  if (init.num_inputs() != 3 || !init.has_input(0) || !init.has_input(1) || !init.has_input(2))
    return init.error("InstanceNormalization takes input, scale and B; got " + std::to_string(init.num_inputs()) + " inputs");
  ASSIGN_OR_RETURN(float epsilon, init.attr_float("epsilon", 1e-5f));
  return make_kernel<InstanceNormKernel>(epsilon, init.mode, init.isa);
}

}  // namespace

TWINRT_REGISTER_OP("InstanceNormalization", 1, create_instance_norm);

}  // namespace twinrt
