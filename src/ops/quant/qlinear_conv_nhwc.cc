// QLinearConvNhwc (domain ai.twinrt): QLinearConv with X and Y in NHWC ([N, H, W, C] and
// [N, OH, OW, M]; W stays [M, C, kh, kw]), made by passes/layout_nhwc.cc for 2-D convs of
// uint8 activations, constant int8 weights with zero points 0, C a multiple of 4, group 1
// and a uint8 output. Inputs and attributes are QLinearConv's; runs ops/quant/conv_nhwc.h.
// With a residual add absorbed (a QdqAdd that alone read the result), inputs 9-15 are the
// QdqAdd's other inputs: a_scale, a_zero (for the convolution's result), b, b_scale, b_zero,
// y_scale, y_zero, and attribute residual_relu; the output is the QdqAdd's.
#include <algorithm>
#include <optional>

#include "ops/contrib/ms_domain.h"  // read_qparam: a per-tensor scale and zero point
#include "ops/nn/conv_tiles.h"
#include "ops/op.h"
#include "ops/quant/conv_nhwc.h"
#include "ops/quant/qdq_add_loop.h"
#include "ops/quant/qlinear_requant.h"
#include "ops/quant/quant_common.h"

namespace twinrt {
namespace {

// [a, b, c, d] -> [a, d, b, c] and back.
template <class V>
std::vector<V> nhwc_to_nchw(const std::vector<V>& s) {
  return {s[0], s[3], s[1], s[2]};
}
template <class V>
std::vector<V> nchw_to_nhwc(const std::vector<V>& s) {
  return {s[0], s[2], s[3], s[1]};
}

class QLinearConvNhwcKernel final : public OpKernel {
 public:
  QLinearConvNhwcKernel(nn::WindowAttrs attrs, quant::NhwcConvWeights w, bool residual_relu, const KernelInit& init)
      : attrs_(std::move(attrs)),
        w_(std::move(w)),
        residual_relu_(residual_relu),
        residual_loop_(init, {9, 12, 14}, residual_relu, *w_.kernel) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* x = ctx.shape(0);
    if (!x || x->size() != 4) {
      ctx.set_output(0, ctx.dtype(7));
      return Status::ok();
    }
    const ir::Shape nchw = nhwc_to_nchw(*x);
    const std::optional<ir::Shape> y = nn::conv_output_shape(attrs_, &nchw, ctx.shape(3));
    ctx.set_output(0, ctx.dtype(7), y && y->size() == 4 ? std::optional<ir::Shape>(nchw_to_nhwc(*y)) : std::nullopt);
    return Status::ok();
  }

  bool keeps_copy_of_input(size_t i) const override { return i == 3; }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* w, ctx.tensor_input(3));
    if (x->dtype() != DataType::kUInt8 || x->rank() != 4) return invalid_argument("X must be uint8 NHWC");
    ASSIGN_OR_RETURN(nn::ConvPlan plan, nn::make_conv_plan(attrs_, 1, nhwc_to_nchw(x->shape()), w->shape()));
    ASSIGN_OR_RETURN(const Tensor* xz_t, ctx.tensor_input(2));
    ASSIGN_OR_RETURN(std::vector<int32_t> xz, quant::read_zero_points(*xz_t, "x_zero_point"));
    ASSIGN_OR_RETURN(const Tensor* wz_t, ctx.tensor_input(5));
    ASSIGN_OR_RETURN(std::vector<int32_t> wz, quant::read_zero_points(*wz_t, "w_zero_point"));
    if (xz.size() != 1 || std::any_of(wz.begin(), wz.end(), [](int32_t z) { return z != 0; }))
      return invalid_argument("QLinearConvNhwc needs a scalar x_zero_point and weight zero points 0");
    quant::QLinearRequant rq;
    TRY(quant::read_qlinear_requant(ctx, plan.out_channels, rq));
    if (rq.y_type != DataType::kUInt8) return invalid_argument("QLinearConvNhwc writes uint8");
    const nn::WindowGeometry& g = plan.window;
    quant::NhwcConvShape s;
    s.batch = plan.batch;
    s.channels = plan.in_channels;
    s.in_h = g.in[0], s.in_w = g.in[1], s.out_h = g.out[0], s.out_w = g.out[1];
    s.kernel_h = g.kernel[0], s.kernel_w = g.kernel[1], s.stride_h = g.strides[0], s.stride_w = g.strides[1];
    s.dilation_h = g.dilations[0], s.dilation_w = g.dilations[1], s.pad_top = g.pad_begin[0], s.pad_left = g.pad_begin[1];
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, DataType::kUInt8, {s.batch, s.out_h, s.out_w, plan.out_channels}));
    const uint8_t x_zero = static_cast<uint8_t>(xz[0]);
    const std::vector<int32_t> col_add = quant::fold_nhwc_bias(w_, rq.bias, x_zero);
    std::optional<quant::NhwcResidual> residual;
    if (ctx.has_input(kResidual)) {
      ASSIGN_OR_RETURN(residual, read_residual(ctx, y->shape()));
    }
    quant::conv_nhwc_u8(ctx.pool(), s, w_, x->data<uint8_t>(), x_zero, col_add.data(), rq.multiplier.data(), rq.y_zero,
                        y->data<uint8_t>(), residual ? &*residual : nullptr);
    return Status::ok();
  }

 private:
  static constexpr size_t kResidual = 11;  // b of the absorbed QdqAdd

  // The absorbed QdqAdd's b (uint8, the output's shape) and its three uint8 scale/zero pairs
  // (inputs 9-10 for a, the convolution's result; 12-13 for b; 14-15 for the sum).
  Result<quant::NhwcResidual> read_residual(RunContext& ctx, const std::vector<int64_t>& shape) const {
    ASSIGN_OR_RETURN(const Tensor* b, ctx.tensor_input(kResidual));
    if (b->dtype() != DataType::kUInt8 || b->shape() != shape)
      return invalid_argument("the residual must be uint8 of the output's shape " + shape_to_string(shape) + ", got " +
                              dtype_name(b->dtype()) + shape_to_string(b->shape()));
    ASSIGN_OR_RETURN(contrib::QParam pa, contrib::read_qparam(ctx, 9, 10, DataType::kUInt8, "a"));
    ASSIGN_OR_RETURN(contrib::QParam pb, contrib::read_qparam(ctx, 12, 13, DataType::kUInt8, "b"));
    ASSIGN_OR_RETURN(contrib::QParam py, contrib::read_qparam(ctx, 14, 15, DataType::kUInt8, "y"));
    const kernels::QdqAddParams params{pa.scale, pb.scale, py.scale, pa.zero, pb.zero, py.zero, residual_relu_};
    return quant::NhwcResidual{b->data<uint8_t>(), params, residual_loop_.for_params(params)};
  }

  nn::WindowAttrs attrs_;
  quant::NhwcConvWeights w_;
  bool residual_relu_;
  quant::QdqAddLoop residual_loop_;
};

Result<std::unique_ptr<OpKernel>> create_qlinear_conv_nhwc(const KernelInit& init) {
  if (init.num_inputs() != 8 && init.num_inputs() != 9 && init.num_inputs() != 16)
    return init.error("takes 8 or 9 inputs, or 16 with a residual add");
  ASSIGN_OR_RETURN(int64_t residual_relu, init.attr_int("residual_relu", 0));
  ASSIGN_OR_RETURN(nn::WindowAttrs attrs, nn::parse_window_attrs(init, false));
  ASSIGN_OR_RETURN(int64_t group, init.attr_int("group", 1));
  if (group != 1) return init.error("needs group 1");
  const Tensor* w = init.constant_inputs.size() > 3 ? init.constant_inputs[3] : nullptr;
  const auto ones = [](const std::vector<int64_t>& v) { return std::all_of(v.begin(), v.end(), [](int64_t e) { return e == 1; }); };
  const bool unit_steps = ones(attrs.strides) && ones(attrs.dilations);
  std::optional<quant::NhwcConvWeights> packed = w ? quant::pack_nhwc_conv_weights(init.isa, *w, unit_steps) : std::nullopt;
  if (!packed) return init.error("needs constant int8 weights [M, C, kh, kw] with C a multiple of 4");
  return make_kernel<QLinearConvNhwcKernel>(std::move(attrs), std::move(*packed), residual_relu != 0, init);
}

}  // namespace

TWINRT_REGISTER_OP_EX(ir::kInternalDomain, "QLinearConvNhwc", 1, INT64_MAX, "ref", 0, create_qlinear_conv_nhwc);

}  // namespace twinrt
