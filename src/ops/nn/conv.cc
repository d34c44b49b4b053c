// Conv: N-D convolution with groups, strides, dilations and padding (im2col + GEMM).
#include "kernels/ref/dwconv_ref.h"
#include "ops/common/dispatch.h"
#include "ops/nn/compute_type.h"
#include "ops/nn/conv_tiles.h"
#include "ops/nn/gemm_runner.h"
#include "ops/op.h"

namespace twinrt {
namespace {

constexpr unsigned kConvTypes = kF16 | kF32 | kF64;

class ConvKernel final : public OpKernel {
 public:
  ConvKernel(nn::WindowAttrs attrs, int64_t group, Mode mode, nn::WidenedConstant weights)
      : attrs_(std::move(attrs)), group_(group), gemm_(mode),
        depthwise_(mode == Mode::kReference ? kernels::f32_dwconv2d_f64acc_ref : kernels::f32_dwconv2d_ref),
        weights_(std::move(weights)) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0), nn::conv_output_shape(attrs_, ctx.shape(0), ctx.shape(1)));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* w, ctx.tensor_input(1));
    const Tensor* b = nullptr;
    if (ctx.has_input(2)) {
      ASSIGN_OR_RETURN(b, ctx.tensor_input(2));
    }
    for (const Tensor* t : {w, b})
      if (t && t->dtype() != x->dtype())
        return invalid_argument(std::string("Conv inputs must share X's type ") + dtype_name(x->dtype()) + ", got " +
                                dtype_name(t->dtype()));
    ASSIGN_OR_RETURN(nn::ConvPlan plan, nn::make_conv_plan(attrs_, group_, x->shape(), w->shape()));
    if (b && (b->rank() != 1 || b->dim(0) != plan.out_channels))
      return invalid_argument("Conv bias must have shape [" + std::to_string(plan.out_channels) + "], got " +
                              shape_to_string(b->shape()));
    std::vector<int64_t> y_shape = {plan.batch, plan.out_channels};
    y_shape.insert(y_shape.end(), plan.window.out.begin(), plan.window.out.end());
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), y_shape));
    return dispatch<kConvTypes>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      run_typed<T>(ctx.pool(), plan, *x, *w, b, *y);
      return Status::ok();
    });
  }

 private:
  template <class T>
  void run_typed(ThreadPool& pool, const nn::ConvPlan& plan, const Tensor& x, const Tensor& w, const Tensor* b,
                 Tensor& y) const {
    using C = nn::compute_t<T>;
    nn::ComputeInput<T> xv(x), wv(w, &weights_);
    std::optional<nn::ComputeInput<T>> bv;
    if (b) bv.emplace(*b);
    nn::ComputeOutput<T> yv(y);
    const kernels::GemmFn<C> gemm = gemm_.get<C>();
    const int64_t taps = plan.taps(), mg = plan.out_per_group(), positions = plan.window.out_size();
    const C* weights = wv.data();
    const C* bias = bv ? bv->data() : nullptr;
    C* out = yv.data();
    if constexpr (std::is_same_v<C, float>) {
      if (plan.in_per_group() == 1 && plan.window.rank() == 2) {
        run_depthwise(pool, plan, xv.data(), weights, bias, out);
        yv.commit();
        return;
      }
    }
    nn::for_each_conv_tile<C>(pool, plan, xv.data(), C(0),
                              [&](int64_t n, int64_t g, int64_t m0, int64_t rows, int64_t p0, int64_t cols,
                                  const C* col, int64_t ldb) {
      const int64_t oc = g * mg + m0;
      kernels::GemmProblem<C> p;
      p.m = rows;
      p.n = cols;
      p.k = taps;
      p.a = weights + oc * taps;
      p.a_row_stride = taps;
      p.b = col;
      p.ldb = ldb;
      p.c = out + (n * plan.out_channels + oc) * positions + p0;
      p.ldc = positions;
      if (bias) {
        for (int64_t r = 0; r < rows; ++r) std::fill(p.c + r * positions, p.c + r * positions + cols, bias[oc + r]);
        p.beta = 1;
      }
      gemm(p);
    });
    yv.commit();
  }

  // One input channel per group (depthwise): a direct per-plane kernel, no im2col copy.
  void run_depthwise(ThreadPool& pool, const nn::ConvPlan& plan, const float* x, const float* weights, const float* bias,
                 float* out) const {
    const kernels::ImageWindow w = plan.window.image();
    const int64_t mg = plan.out_per_group(), taps = plan.taps();
    const int64_t in_size = plan.window.in_size(), out_size = plan.window.out_size();
    pool.parallel_for(plan.batch * plan.out_channels, 1, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t) {
        const int64_t n = t / plan.out_channels, oc = t % plan.out_channels;
        depthwise_(w, x + (n * plan.in_channels + oc / mg) * in_size, weights + oc * taps, bias ? bias[oc] : 0.0f,
               out + t * out_size);
      }
    });
  }

  nn::WindowAttrs attrs_;
  int64_t group_;
  nn::GemmKernels gemm_;
  void (*depthwise_)(const kernels::ImageWindow&, const float*, const float*, float, float*);
  nn::WidenedConstant weights_;
};

Result<std::unique_ptr<OpKernel>> create_conv(const KernelInit& init) {
  if (init.num_inputs() < 2 || init.num_inputs() > 3 || !init.has_input(0) || !init.has_input(1))
    return init.error("Conv takes X, W and optional B, got " + std::to_string(init.num_inputs()) + " inputs");
  ASSIGN_OR_RETURN(nn::WindowAttrs attrs, nn::parse_window_attrs(init, false));
  ASSIGN_OR_RETURN(int64_t group, init.attr_int("group", 1));
  if (group < 1) return init.error("group must be >= 1, got " + std::to_string(group));
  ASSIGN_OR_RETURN(nn::WidenedConstant weights, nn::WidenedConstant::make(init.constant_inputs.size() > 1 ? init.constant_inputs[1] : nullptr));
  return make_kernel<ConvKernel>(std::move(attrs), group, init.mode, std::move(weights));
}

}  // namespace

TWINRT_REGISTER_OP("Conv", 1, create_conv);

}  // namespace twinrt
