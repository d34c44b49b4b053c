// com.microsoft QLinearSigmoid / QLinearLeakyRelu: Y = quantize(f(dequantize(X))).
// Inputs: X, X_scale, X_zero_point, Y_scale, Y_zero_point (zero points optional).
// An 8-bit input has 256 values, so f is evaluated once per value into a table (as ONNX
// Runtime does) and the tensor is a table lookup: the result does not depend on the size.
#include <array>

#include "kernels/math/math.h"
#include "ops/common/dispatch.h"
#include "ops/contrib/ms_domain.h"
#include "ops/quant/quant_common.h"

namespace twinrt::contrib {
namespace {

class QLinearLookupKernel final : public OpKernel {
 public:
  using Fn = float (*)(float x, float alpha);
  QLinearLookupKernel(Fn fn, float alpha) : fn_(fn), alpha_(alpha) {}

  Status infer(InferContext& ctx) const override {
    ctx.same_as_input(0, 0);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(UnaryQLinear in, read_unary_qlinear(ctx, "X", "Y"));
    const Tensor* x = in.x;
    const QParam px = in.px, py = in.py;
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, x->dtype(), x->shape()));
    return dispatch<kU8 | kI8>(x->dtype(), [&](auto* tag) {
      using Q = std::remove_pointer_t<decltype(tag)>;
      constexpr int kMin = std::numeric_limits<Q>::min();
      std::array<Q, 256> table;
      for (int q = kMin; q < kMin + 256; ++q) {
        const float v = fn_(px.scale * static_cast<float>(q - px.zero), alpha_);
        table[static_cast<size_t>(q - kMin)] = quant::quantize<Q>(v / py.scale, py.zero);
      }
      const Q* in = x->data<Q>();
      Q* out = y->data<Q>();
      for (int64_t i = 0; i < x->numel(); ++i) out[i] = table[static_cast<size_t>(in[i] - kMin)];
      return Status::ok();
    });
  }

 private:
  Fn fn_;
  float alpha_;
};

float sigmoid(float x, float) { return math::sigmoidf(x); }
float leaky_relu(float x, float alpha) { return x >= 0.0f ? x : x * alpha; }

Result<std::unique_ptr<OpKernel>> create_sigmoid(const KernelInit& init) {
  TRY(check_inputs(init, 4, 5, {0, 1, 3}));
  return make_kernel<QLinearLookupKernel>(sigmoid, 0.0f);
}

Result<std::unique_ptr<OpKernel>> create_leaky_relu(const KernelInit& init) {
  TRY(check_inputs(init, 4, 5, {0, 1, 3}));
  ASSIGN_OR_RETURN(float alpha, init.attr_float("alpha", 0.01f));
  return make_kernel<QLinearLookupKernel>(leaky_relu, alpha);
}

}  // namespace

TWINRT_REGISTER_MS_OP("QLinearSigmoid", create_sigmoid);
TWINRT_REGISTER_MS_OP("QLinearLeakyRelu", create_leaky_relu);

}  // namespace twinrt::contrib
