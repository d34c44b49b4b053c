// com.microsoft QLinearGlobalAveragePool: the mean of each channel's image, requantized.
// Inputs X, x_scale, x_zero_point, y_scale, y_zero_point; attribute channels_last (X is
// [N, C, spatial...] by default, [N, spatial..., C] when set). The integer sum is exact and
// goes through the shared requantization once:
//   y = saturate(round_half_even(float(sum - x_zero * S) * (x_scale / (y_scale * S))) + y_zero)
// with S the image size (the float expression ONNX Runtime evaluates too).
#include "kernels/gemm/i8_gemm.h"
#include "ops/common/dispatch.h"
#include "ops/contrib/ms_domain.h"

namespace twinrt::contrib {
namespace {

class QLinearGlobalAveragePoolKernel final : public OpKernel {
 public:
  explicit QLinearGlobalAveragePoolKernel(bool channels_last) : channels_last_(channels_last) {}

  Status infer(InferContext& ctx) const override {
    std::optional<ir::Shape> out;
    if (const ir::Shape* s = ctx.shape(0); s && s->size() >= 3) {
      out = *s;
      const size_t c = channels_last_ ? s->size() - 1 : 1;
      for (size_t d = 1; d < s->size(); ++d)
        if (d != c) (*out)[d] = ir::Dim::of(1);
    }
    ctx.set_output(0, ctx.dtype(0), out);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(UnaryQLinear in, read_unary_qlinear(ctx, "x", "y"));
    const Tensor* x = in.x;
    const QParam px = in.px, py = in.py;
    if (x->rank() < 3) return invalid_argument("X must have rank 3 or more, got shape " + shape_to_string(x->shape()));
    const size_t c_axis = channels_last_ ? x->shape().size() - 1 : 1;
    const int64_t batch = x->dim(0), channels = x->dim(static_cast<int64_t>(c_axis));
    const int64_t image = channels * batch == 0 ? 0 : x->numel() / (batch * channels);
    std::vector<int64_t> shape = x->shape();
    for (size_t d = 1; d < shape.size(); ++d)
      if (d != c_axis) shape[d] = 1;
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, x->dtype(), shape));
    if (batch * channels == 0) return Status::ok();
    if (image == 0) return invalid_argument("X has an empty image: shape " + shape_to_string(x->shape()));
    // Where element p of channel c of batch n lives: NCHW rows or NHWC columns.
    const int64_t c_stride = channels_last_ ? 1 : image, p_stride = channels_last_ ? channels : 1;
    std::vector<int32_t> sums(static_cast<size_t>(batch * channels), 0);
    const float multiplier = px.scale / (py.scale * static_cast<float>(image));
    const int32_t bias = static_cast<int32_t>(-int64_t{px.zero} * image);  // wraps like the sum (mod 2^32)
    return dispatch<kU8 | kI8>(x->dtype(), [&](auto* tag) {
      using Q = std::remove_pointer_t<decltype(tag)>;
      const Q* in = x->data<Q>();
      for (int64_t n = 0; n < batch; ++n)
        for (int64_t c = 0; c < channels; ++c) {
          const Q* base = in + n * channels * image + c * c_stride;
          int64_t s = 0;
          for (int64_t p = 0; p < image; ++p) s += base[p * p_stride];
          sums[static_cast<size_t>(n * channels + c)] = static_cast<int32_t>(static_cast<uint32_t>(s));
        }
      if constexpr (std::is_same_v<Q, uint8_t>)
        kernels::requantize_u8(sums.data(), batch * channels, bias, &multiplier, 0, py.zero, y->data<Q>());
      else
        kernels::requantize_s8(sums.data(), batch * channels, bias, &multiplier, 0, py.zero, y->data<Q>());
      return Status::ok();
    });
  }

 private:
  bool channels_last_;
};

Result<std::unique_ptr<OpKernel>> create(const KernelInit& init) {
  TRY(check_inputs(init, 4, 5, {0, 1, 3}));
  ASSIGN_OR_RETURN(int64_t channels_last, init.attr_int("channels_last", 0));
  return make_kernel<QLinearGlobalAveragePoolKernel>(channels_last != 0);
}

}  // namespace

TWINRT_REGISTER_MS_OP("QLinearGlobalAveragePool", create);

}  // namespace twinrt::contrib
