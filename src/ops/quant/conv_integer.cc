// ConvInteger: int32 convolution of (x - x_zero_point) with (w - w_zero_point).
// QLinearConv: the same, plus an int32 bias, requantized with x_scale * w_scale / y_scale.
// Padding reads x_zero_point, so padded taps contribute zero like in float Conv.
#include <algorithm>

#include "kernels/ref/qgemm_ref.h"
#include "ops/quant/i8_weights.h"
#include "ops/quant/qlinear_requant.h"
#include "ops/common/dispatch.h"
#include "ops/nn/conv_tiles.h"
#include "ops/op.h"
#include "ops/quant/quant_common.h"

namespace twinrt {
namespace {

// Input positions of the two ops.
struct Inputs {
  size_t x, x_zero, w, w_zero;
};
constexpr Inputs kInteger = {0, 2, 1, 3};
constexpr Inputs kQLinear = {0, 2, 3, 5};

using Requant = quant::QLinearRequant;

class QConvKernel final : public OpKernel {
 public:
  QConvKernel(nn::WindowAttrs attrs, int64_t group, bool qlinear, Isa isa, std::optional<quant::I8Weights> packed)
      : attrs_(std::move(attrs)), group_(group), qlinear_(qlinear), in_(qlinear ? kQLinear : kInteger),
        tier_(kernels::i8_gemm_kernel(isa)), packed_(std::move(packed)) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, qlinear_ ? ctx.dtype(7) : DataType::kInt32, nn::conv_output_shape(attrs_, ctx.shape(in_.x), ctx.shape(in_.w)));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(in_.x));
    ASSIGN_OR_RETURN(const Tensor* w, ctx.tensor_input(in_.w));
    ASSIGN_OR_RETURN(nn::ConvPlan plan, nn::make_conv_plan(attrs_, group_, x->shape(), w->shape()));
    ASSIGN_OR_RETURN(std::vector<int32_t> x_zero, zero_points(ctx, in_.x_zero, *x, 1, "x_zero_point"));
    ASSIGN_OR_RETURN(std::vector<int32_t> w_zero, zero_points(ctx, in_.w_zero, *w, plan.out_channels, "w_zero_point"));
    Requant rq;
    if (qlinear_) TRY(quant::read_qlinear_requant(ctx, plan.out_channels, rq));
    std::vector<int64_t> ys = {plan.batch, plan.out_channels};
    ys.insert(ys.end(), plan.window.out.begin(), plan.window.out.end());
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, qlinear_ ? rq.y_type : DataType::kInt32, ys));
    return dispatch<kU8 | kI8>(x->dtype(), [&](auto* xt) {
      return dispatch<kU8 | kI8>(w->dtype(), [&](auto* wt) {
        using TX = std::remove_pointer_t<decltype(xt)>;
        using TW = std::remove_pointer_t<decltype(wt)>;
        if (!qlinear_) {
          convolve<TX, TW>(ctx.pool(), plan, *x, *w, x_zero, w_zero, [&](int64_t out_row, int64_t p0, const int32_t* acc,
                                                                         int64_t rows, int64_t cols, int64_t) {
            int32_t* dst = y->data<int32_t>();
            const int64_t positions = plan.window.out_size();
            for (int64_t r = 0; r < rows; ++r)
              std::copy(acc + r * cols, acc + (r + 1) * cols, dst + (out_row + r) * positions + p0);
          });
          return Status::ok();
        }
        return dispatch<kU8 | kI8>(rq.y_type, [&](auto* qt) {
          using Q = std::remove_pointer_t<decltype(qt)>;
          convolve<TX, TW>(ctx.pool(), plan, *x, *w, x_zero, w_zero, [&](int64_t out_row, int64_t p0, const int32_t* acc,
                                                                         int64_t rows, int64_t cols, int64_t oc) {
            Q* dst = y->data<Q>();
            const int64_t positions = plan.window.out_size();
            for (int64_t r = 0; r < rows; ++r) {
              const size_t m = static_cast<size_t>(oc + r);
              Q* out = dst + (out_row + r) * positions + p0;
              if constexpr (std::is_same_v<Q, uint8_t>)
                tier_.requantize_u8(acc + r * cols, cols, rq.bias[m], &rq.multiplier[m], 0, rq.y_zero, out);
              else
                tier_.requantize_s8(acc + r * cols, cols, rq.bias[m], &rq.multiplier[m], 0, rq.y_zero, out);
            }
          });
          return Status::ok();
        });
      });
    });
  }

 private:
  // Runs the int32 convolution tile by tile; store(out_row, p0, acc, rows, cols, oc) puts
  // each tile's rows x cols products (output channel oc onward, flat output row out_row).
  template <class TX, class TW, class Store>
  void convolve(ThreadPool& pool, const nn::ConvPlan& plan, const Tensor& x, const Tensor& w,
                const std::vector<int32_t>& x_zero, const std::vector<int32_t>& w_zero, Store&& store) const {
    const int64_t taps = plan.taps(), mg = plan.out_per_group();
    const TX pad = static_cast<TX>(x_zero[0]);
    const TW* weights = w.data<TW>();
    if (packed_) {
      convolve_packed(pool, plan, x.data<TX>(), pad, std::is_same_v<TX, uint8_t>, x_zero[0], w_zero, store);
      return;
    }
    nn::for_each_conv_tile<TX>(pool, plan, x.data<TX>(), pad,
                               [&](int64_t n, int64_t g, int64_t m0, int64_t rows, int64_t p0, int64_t cols,
                                   const TX* col, int64_t ldb) {
      const int64_t oc = g * mg + m0;
      std::vector<int32_t> acc(static_cast<size_t>(rows * cols));
      kernels::QGemmProblem<TW, TX> p;
      p.m = rows;
      p.n = cols;
      p.k = taps;
      p.a = weights + oc * taps;
      p.lda = taps;
      p.b = col;
      p.ldb = ldb;
      p.c = acc.data();
      p.ldc = cols;
      p.a_zero = w_zero.data() + (w_zero.size() == 1 ? 0 : oc);
      p.a_zero_stride = w_zero.size() == 1 ? 0 : 1;
      p.b_zero = x_zero.data();
      p.b_zero_stride = 0;
      kernels::qgemm(p);
      store(n * plan.out_channels + oc, p0, acc.data(), rows, cols, oc);
    });
  }

  // The same through the weights packed at session creation: each im2col tile is packed
  // into column panels and multiplied with the group's row panels.
  template <class TX, class Store>
  void convolve_packed(ThreadPool& pool, const nn::ConvPlan& plan, const TX* x, TX pad, bool x_unsigned,
                       int32_t x_zero, const std::vector<int32_t>& w_zero, Store&& store) const {
    const kernels::I8GemmKernel& kernel = *packed_->kernel;
    const std::vector<int32_t> wz = quant::packed_zeros(w_zero, packed_->src_unsigned, false);
    const int32_t xz = kernels::i8_packed_zero(x_zero, x_unsigned, true);
    const int64_t taps = plan.taps(), mg = plan.out_per_group(), wz_stride = wz.size() == 1 ? 0 : 1;
    const bool symmetric = std::all_of(wz.begin(), wz.end(), [](int32_t z) { return z == 0; });  // no column sums needed
    nn::for_each_conv_tile<TX>(pool, plan, x, pad, [&](int64_t n, int64_t g, int64_t m0, int64_t rows, int64_t p0,
                                                       int64_t cols, const TX* col, int64_t ldb) {
      const int64_t oc = g * mg + m0;
      // Column chunks keep the packed tile in cache (pointwise convolutions hand over the
      // whole image); row blocks keep their int32 products (rows x count) in L2, so they are
      // requantized while there and the tile's stores do not evict the packed columns (a
      // 1x1 conv to 1024 channels of 196 positions made 800 KB of them per call).
      // Scratch kept per thread: fresh buffers of this size are fresh pages (page faults and
      // zeroing on every tile).
      constexpr int64_t kChunk = 256, kAccBytes = 64 * 1024;
      thread_local kernels::I8Panels cp;
      thread_local std::vector<int32_t> acc;
      for (int64_t c0 = 0; c0 < cols; c0 += kChunk) {
        const int64_t count = std::min(kChunk, cols - c0);
        kernels::i8_pack(reinterpret_cast<const uint8_t*>(col) + c0, x_unsigned, 1, ldb, 0, count, taps, kernel.nr, true, cp,
                         !symmetric);
        const kernels::I8Operand s{&cp, 0, (count + kernel.nr - 1) / kernel.nr, &xz, 0};
        const int64_t block = std::max<int64_t>(1, kAccBytes / 4 / count / kernel.mr) * kernel.mr;
        acc.resize(std::max(acc.size(), static_cast<size_t>(std::min(block, rows) * count)));  // grown only: no zeroing
        for (int64_t r0 = 0; r0 < rows; r0 += block) {
          const int64_t rn = std::min(block, rows - r0);
          const kernels::I8Operand r{&packed_->parts[static_cast<size_t>(g)], (m0 + r0) / kernel.mr,
                                     (rn + kernel.mr - 1) / kernel.mr, wz.data() + g * mg * wz_stride, wz_stride};
          kernels::i8_gemm_packed(kernel, r, s, acc.data(), count);
          store(n * plan.out_channels + oc + r0, p0 + c0, acc.data(), rn, count, oc + r0);
        }
      }
    });
  }

  // A zero point of `operand`'s type: absent (0), a scalar, or (weights) one per output channel.
  static Result<std::vector<int32_t>> zero_points(RunContext& ctx, size_t input, const Tensor& operand,
                                                  int64_t per_channel, const std::string& what) {
    if (!ctx.has_input(input)) return std::vector<int32_t>{0};
    ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(input));
    if (t->dtype() != operand.dtype())
      return invalid_argument(what + " must have its operand's type " + dtype_name(operand.dtype()) + ", got " +
                              dtype_name(t->dtype()));
    if (t->numel() != 1 && t->numel() != per_channel)
      return invalid_argument(what + " must be a scalar" + (per_channel > 1 ? " or have one value per output channel" : "") +
                              ", got shape " + shape_to_string(t->shape()));
    return quant::read_zero_points(*t, what);
  }

  nn::WindowAttrs attrs_;
  int64_t group_;
  bool qlinear_;
  Inputs in_;
  const kernels::I8GemmKernel& tier_;       // its requantization (the same bytes on every tier)
  std::optional<quant::I8Weights> packed_;  // W packed when it is a constant
};

Result<std::unique_ptr<OpKernel>> create_qconv(const KernelInit& init, bool qlinear) {
  const size_t min_in = qlinear ? 8 : 2, max_in = qlinear ? 9 : 4;
  if (init.num_inputs() < min_in || init.num_inputs() > max_in)
    return init.error("takes " + std::to_string(min_in) + " to " + std::to_string(max_in) + " inputs, got " +
                      std::to_string(init.num_inputs()));
  for (size_t i = 0; i < min_in; ++i)
    if (!init.has_input(i) && (qlinear || i < 2)) return init.error("input " + std::to_string(i) + " is missing");
  ASSIGN_OR_RETURN(nn::WindowAttrs attrs, nn::parse_window_attrs(init, false));
  ASSIGN_OR_RETURN(int64_t group, init.attr_int("group", 1));
  if (group < 1) return init.error("group must be >= 1, got " + std::to_string(group));
  const size_t w_input = qlinear ? kQLinear.w : kInteger.w;
  const Tensor* w = w_input < init.constant_inputs.size() ? init.constant_inputs[w_input] : nullptr;
  std::optional<quant::I8Weights> packed = w ? quant::pack_conv_weights(init.isa, *w, group) : std::nullopt;
  return make_kernel<QConvKernel>(std::move(attrs), group, qlinear, init.isa, std::move(packed));
}

Result<std::unique_ptr<OpKernel>> create_conv_integer(const KernelInit& init) { return create_qconv(init, false); }
Result<std::unique_ptr<OpKernel>> create_qlinear_conv(const KernelInit& init) { return create_qconv(init, true); }

}  // namespace

TWINRT_REGISTER_OP("ConvInteger", 10, create_conv_integer);
TWINRT_REGISTER_OP("QLinearConv", 10, create_qlinear_conv);

}  // namespace twinrt
