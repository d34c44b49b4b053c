// com.microsoft QLinearSoftmax: Y = quantize(softmax(dequantize(X))).
// Inputs X, X_scale, x_zero_point, y_scale, y_zero_point; attributes axis (default -1) and
// opset, the Softmax version whose axis rule applies: before 13 the input is seen as 2-D
// [before axis, from axis on], from 13 on the softmax runs along `axis` alone.
// In a row, exp(x_scale * (x - x_max)) depends only on x_max - x (0..255): one table of 256
// exponentials, summed in double in row order, each probability rounded once to float.
#include <array>

#include "kernels/math/math.h"
#include "ops/common/dispatch.h"
#include "ops/contrib/ms_domain.h"
#include "ops/quant/quant_common.h"

namespace twinrt::contrib {
namespace {

class QLinearSoftmaxKernel final : public OpKernel {
 public:
  QLinearSoftmaxKernel(int64_t axis, bool whole_tail) : axis_(axis), whole_tail_(whole_tail) {}

  Status infer(InferContext& ctx) const override {
    ctx.same_as_input(0, 0);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(UnaryQLinear in, read_unary_qlinear(ctx, "X", "y"));
    const Tensor* x = in.x;
    const QParam px = in.px, py = in.py;
    const int64_t rank = x->rank();
    if (axis_ < -rank || axis_ >= std::max<int64_t>(rank, 1))
      return invalid_argument("axis " + std::to_string(axis_) + " is out of range for rank " + std::to_string(rank));
    const int64_t axis = axis_ < 0 ? axis_ + rank : axis_;
    int64_t outer = 1, len = 1, inner = 1;  // rows: outer x inner, each of len elements inner apart
    for (int64_t d = 0; d < rank; ++d) {
      if (d < axis) outer *= x->dim(d);
      else if (d == axis || whole_tail_) len *= x->dim(d);
      else inner *= x->dim(d);
    }
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, x->dtype(), x->shape()));
    if (x->numel() == 0) return Status::ok();
    std::array<double, 256> table;  // exp(-x_scale * d), d = x_max - x
    for (int d = 0; d < 256; ++d) table[static_cast<size_t>(d)] = math::exp(-static_cast<double>(px.scale) * d);
    return dispatch<kU8 | kI8>(x->dtype(), [&](auto* tag) {
      using Q = std::remove_pointer_t<decltype(tag)>;
      const Q* in = x->data<Q>();
      Q* out = y->data<Q>();
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          const int64_t base = o * len * inner + i;
          Q max = in[base];
          for (int64_t k = 1; k < len; ++k) max = std::max(max, in[base + k * inner]);
          double sum = 0.0;
          for (int64_t k = 0; k < len; ++k) sum += table[static_cast<size_t>(max - in[base + k * inner])];
          for (int64_t k = 0; k < len; ++k) {
            const float p = static_cast<float>(table[static_cast<size_t>(max - in[base + k * inner])] / sum);
            out[base + k * inner] = quant::quantize<Q>(p / py.scale, py.zero);
          }
        }
      return Status::ok();
    });
  }

 private:
  int64_t axis_;
  bool whole_tail_;  // opset < 13: the softmax covers every dimension from axis on
};

Result<std::unique_ptr<OpKernel>> create(const KernelInit& init) {
  TRY(check_inputs(init, 4, 5, {0, 1, 3}));
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", -1));
  if (!init.has_attr("opset")) return init.error("QLinearSoftmax needs the 'opset' attribute");
  ASSIGN_OR_RETURN(int64_t opset, init.attr_int("opset", 13));
  return make_kernel<QLinearSoftmaxKernel>(axis, opset < 13);
}

}  // namespace

TWINRT_REGISTER_MS_OP("QLinearSoftmax", create);

}  // namespace twinrt::contrib
