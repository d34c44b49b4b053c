// LRN: each element is divided by a power of the sum of squares over neighbouring channels.
#include "kernels/math/math.h"
#include "ops/nn/compute_type.h"
#include "ops/op.h"
#include "runtime/thread_pool.h"

namespace twinrt {
namespace {

struct LrnAttrs {
  double alpha = 1e-4, beta = 0.75, bias = 1.0;
  int64_t size = 1;
};

class LrnKernel final : public OpKernel {
 public:
  LrnKernel(LrnAttrs attrs, Mode mode) : attrs_(attrs), mode_(mode) {}

  Status infer(InferContext& ctx) const override {
    ctx.same_as_input(0, 0);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    if (x->rank() < 2) return invalid_argument("LRN needs X [N, C, ...], got " + shape_to_string(x->shape()));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), x->shape()));
    return dispatch<kFloats>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      nn::ComputeInput<T> xv(*x);
      nn::ComputeOutput<T> yv(*y);
      if (mode_ == Mode::kReference) apply<double>(ctx.pool(), xv.data(), yv.data(), *x);
      else apply<nn::compute_t<T>>(ctx.pool(), xv.data(), yv.data(), *x);
      yv.commit();
      return Status::ok();
    });
  }

 private:
  template <class Acc, class C>
  void apply(ThreadPool& pool, const C* x, C* y, const Tensor& xt) const {
    const int64_t channels = xt.dim(1), planes = xt.dim(0) * channels;
    const int64_t inner = planes > 0 ? xt.numel() / planes : 0;
    const int64_t before = (attrs_.size - 1) / 2, after = attrs_.size - 1 - before;
    const double scale = attrs_.alpha / static_cast<double>(attrs_.size);
    pool.parallel_for(planes, 1, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const int64_t c = p % channels, image = p - c;
        const int64_t lo = std::max<int64_t>(0, c - before), hi = std::min(channels - 1, c + after);
        for (int64_t i = 0; i < inner; ++i) {
          Acc sum = 0;
          for (int64_t k = lo; k <= hi; ++k) {
            const Acc v = static_cast<Acc>(x[(image + k) * inner + i]);
            sum += v * v;
          }
          const double base = attrs_.bias + scale * static_cast<double>(sum);
          y[p * inner + i] = static_cast<C>(static_cast<Acc>(x[p * inner + i]) / static_cast<Acc>(math::pow(base, attrs_.beta)));
        }
      }
    });
  }

  LrnAttrs attrs_;
  Mode mode_;
};

Result<std::unique_ptr<OpKernel>> create_lrn(const KernelInit& init) {
  if (init.num_inputs() != 1 || !init.has_input(0)) return init.error("LRN takes one input");
  LrnAttrs a;
  ASSIGN_OR_RETURN(float alpha, init.attr_float("alpha", 1e-4f));
  ASSIGN_OR_RETURN(float beta, init.attr_float("beta", 0.75f));
  ASSIGN_OR_RETURN(float bias, init.attr_float("bias", 1.0f));
  if (!init.has_attr("size")) return init.error("attribute 'size' is required");
  ASSIGN_OR_RETURN(a.size, init.attr_int("size", 1));
  if (a.size < 1) return init.error("size must be >= 1, got " + std::to_string(a.size));
  a.alpha = alpha;
  a.beta = beta;
  a.bias = bias;
  return make_kernel<LrnKernel>(a, init.mode);
}

}  // namespace

TWINRT_REGISTER_OP("LRN", 1, create_lrn);

}  // namespace twinrt
