// com.microsoft QLinearConcat: Concat of 8-bit tensors with their own scales and zero
// points into Y's. Inputs: Y_scale, Y_zero_point, then (X, X_scale, X_zero_point) per
// tensor; attribute axis. An input with Y's parameters is copied; any other goes through a
// 256-entry table of quantize(dequantize(q)) (dequantize: scale * (q - zero) in float;
// quantize: QuantizeLinear's rounding).
#include <array>
#include <cstring>

#include "ops/common/dispatch.h"
#include "ops/contrib/ms_domain.h"
#include "ops/quant/quant_common.h"

namespace twinrt::contrib {
namespace {

class QLinearConcatKernel final : public OpKernel {
 public:
  explicit QLinearConcatKernel(int64_t axis) : axis_(axis) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(1));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* yz, ctx.tensor_input(1));
    const DataType q = yz->dtype();
    ASSIGN_OR_RETURN(QParam py, read_qparam(ctx, 0, 1, q, "Y"));
    const size_t count = (ctx.num_inputs() - 2) / 3;
    std::vector<const Tensor*> xs(count);
    std::vector<QParam> params(count);
    for (size_t i = 0; i < count; ++i) {
      const std::string name = "input " + std::to_string(2 + 3 * i);
      ASSIGN_OR_RETURN(xs[i], ctx.tensor_input(2 + 3 * i));
      if (xs[i]->dtype() != q)
        return invalid_argument(name + " must have Y_zero_point's type " + dtype_name(q) + ", got " +
                                dtype_name(xs[i]->dtype()));
      ASSIGN_OR_RETURN(params[i], read_qparam(ctx, 3 + 3 * i, 4 + 3 * i, q, name));
    }
    ASSIGN_OR_RETURN(std::vector<int64_t> shape, concat_shape(xs));
    const size_t axis = static_cast<size_t>(axis_ < 0 ? axis_ + static_cast<int64_t>(shape.size()) : axis_);
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < axis; ++d) outer *= shape[d];
    for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, q, shape));
    return dispatch<kU8 | kI8>(q, [&](auto* tag) {
      using Q = std::remove_pointer_t<decltype(tag)>;
      constexpr int kMin = std::numeric_limits<Q>::min();
      Q* out = y->data<Q>();
      const int64_t out_block = shape[axis] * inner;
      int64_t offset = 0;  // of this input's block within each outer slice
      for (size_t i = 0; i < count; ++i) {
        const bool same = params[i].scale == py.scale && params[i].zero == py.zero;
        std::array<Q, 256> table;
        for (int v = kMin; v < kMin + 256; ++v) {
          const float real = params[i].scale * static_cast<float>(v - params[i].zero);
          table[static_cast<size_t>(v - kMin)] = same ? static_cast<Q>(v) : quant::quantize<Q>(real / py.scale, py.zero);
        }
        const int64_t block = xs[i]->dim(static_cast<int64_t>(axis)) * inner;
        const Q* in = xs[i]->data<Q>();
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t j = 0; j < block; ++j)
            out[o * out_block + offset + j] = table[static_cast<size_t>(in[o * block + j] - kMin)];
        offset += block;
      }
      return Status::ok();
    });
  }

 private:
  // The inputs' shapes agree except along the axis, whose sizes add up.
  Result<std::vector<int64_t>> concat_shape(const std::vector<const Tensor*>& xs) const {
    std::vector<int64_t> shape = xs[0]->shape();
    const int64_t rank = static_cast<int64_t>(shape.size());
    if (axis_ < -rank || axis_ >= rank)
      return invalid_argument("axis " + std::to_string(axis_) + " is out of range for rank " + std::to_string(rank));
    const size_t axis = static_cast<size_t>(axis_ < 0 ? axis_ + rank : axis_);
    for (size_t i = 1; i < xs.size(); ++i) {
      const std::vector<int64_t>& s = xs[i]->shape();
      bool ok = s.size() == shape.size();
      for (size_t d = 0; ok && d < s.size(); ++d) ok = d == axis || s[d] == shape[d];
      if (!ok)
        return invalid_argument("input " + std::to_string(2 + 3 * i) + " has shape " + shape_to_string(s) +
                                ", which does not match " + shape_to_string(xs[0]->shape()) + " except on axis " +
                                std::to_string(axis_));
      shape[axis] += s[axis];
    }
    return shape;
  }

  int64_t axis_;
};

Result<std::unique_ptr<OpKernel>> create(const KernelInit& init) {
  if (init.num_inputs() < 5 || (init.num_inputs() - 2) % 3 != 0)
    return init.error("QLinearConcat takes Y_scale, Y_zero_point and (X, X_scale, X_zero_point) triples; got " +
                      std::to_string(init.num_inputs()) + " inputs");
  for (size_t i = 0; i < init.num_inputs(); ++i)
    if (!init.has_input(i)) return init.error("QLinearConcat input " + std::to_string(i) + " is required");
  if (!init.has_attr("axis")) return init.error("QLinearConcat needs the 'axis' attribute");
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", 0));
  return make_kernel<QLinearConcatKernel>(axis);
}

}  // namespace

TWINRT_REGISTER_MS_OP("QLinearConcat", create);

}  // namespace twinrt::contrib
