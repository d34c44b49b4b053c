// QuantizeLinear: y = saturate(round_half_even(x / scale) + zero_point);
// DequantizeLinear: y = (x - zero_point) * scale. Per tensor or per axis (opset 13).
#include "kernels/gemm/i8_gemm.h"
#include "ops/common/dispatch.h"
#include "ops/nn/compute_type.h"
#include "ops/op.h"
#include "ops/quant/quant_common.h"

namespace twinrt {
namespace {

enum class Direction { kQuantize, kDequantize };

class LinearQuantKernel final : public OpKernel {
 public:
  LinearQuantKernel(Direction dir, int64_t axis, Isa isa) : dir_(dir), axis_(axis), tier_(kernels::i8_gemm_kernel(isa)) {}

  Status infer(InferContext& ctx) const override {
    std::optional<ir::Shape> shape;
    if (ctx.shape(0)) shape = *ctx.shape(0);
    DataType out = DataType::kFloat;
    if (dir_ == Direction::kQuantize) out = ctx.has_input(2) ? ctx.dtype(2) : DataType::kUInt8;
    ctx.set_output(0, out, shape);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* scale_t, ctx.tensor_input(1));
    ASSIGN_OR_RETURN(std::vector<float> scale, quant::read_scales(*scale_t, "scale"));
    ASSIGN_OR_RETURN(quant::ParamLayout layout, quant::param_layout(x->shape(), axis_, *scale_t, "scale"));
    std::vector<int32_t> zero(scale.size(), 0);
    DataType zero_type = dir_ == Direction::kQuantize ? DataType::kUInt8 : x->dtype();
    if (ctx.has_input(2)) {
      ASSIGN_OR_RETURN(const Tensor* zt, ctx.tensor_input(2));
      if (zt->shape() != scale_t->shape())
        return invalid_argument("zero_point shape " + shape_to_string(zt->shape()) + " differs from scale shape " +
                                shape_to_string(scale_t->shape()));
      ASSIGN_OR_RETURN(zero, quant::read_zero_points(*zt, "zero_point"));
      if (dir_ == Direction::kDequantize && zt->dtype() != x->dtype())
        return invalid_argument(std::string("x_zero_point must have x's type ") + dtype_name(x->dtype()) + ", got " +
                                dtype_name(zt->dtype()));
      zero_type = zt->dtype();
    }
    if (dir_ == Direction::kDequantize) return dequantize(ctx, *x, scale, zero, layout);
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, zero_type, x->shape()));
    return dispatch<kU8 | kI8>(zero_type, [&](auto* qtag) {
      using Q = std::remove_pointer_t<decltype(qtag)>;
      return dispatch<kFloats | kI32>(x->dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* in = x->data<T>();
        Q* out = y->data<Q>();
        if constexpr (std::is_same_v<T, float>) {
          // Runs of elements that share one scale, through the tier's quantization loop (every
          // tier's gives the same bytes).
          const int64_t run = layout.count == 1 ? x->numel() : layout.inner;
          for (int64_t i0 = 0; i0 < x->numel(); i0 += run) {
            const size_t c = static_cast<size_t>(layout.index(i0));
            if constexpr (std::is_same_v<Q, uint8_t>) tier_.quantize_u8(in + i0, run, scale[c], zero[c], out + i0);
            else tier_.quantize_s8(in + i0, run, scale[c], zero[c], out + i0);
          }
          return Status::ok();
        }
        for (int64_t i = 0; i < x->numel(); ++i) {
          const size_t c = static_cast<size_t>(layout.index(i));
          out[i] = quant::quantize<Q>(static_cast<float>(nn::to_compute(in[i])) / scale[c], zero[c]);
        }
        return Status::ok();
      });
    });
  }

 private:
  Status dequantize(RunContext& ctx, const Tensor& x, const std::vector<float>& scale, const std::vector<int32_t>& zero,
                    const quant::ParamLayout& layout) const {
    if (x.dtype() == DataType::kInt32)
      for (int32_t z : zero)
        if (z != 0) return invalid_argument("int32 DequantizeLinear requires a zero point of 0, got " + std::to_string(z));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, DataType::kFloat, x.shape()));
    return dispatch<kU8 | kI8 | kI32>(x.dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      const T* in = x.data<T>();
      float* out = y->data<float>();
      if (layout.count == 1) {  // one scale: a loop the compiler vectorizes
        const int32_t z = zero[0];  // 0 for int32 input, so no int32 overflow
        const float s = scale[0];
        for (int64_t i = 0; i < x.numel(); ++i) out[i] = static_cast<float>(int32_t{in[i]} - z) * s;
        return Status::ok();
      }
      for (int64_t i = 0; i < x.numel(); ++i) {
        const size_t c = static_cast<size_t>(layout.index(i));
        out[i] = static_cast<float>(int64_t{in[i]} - zero[c]) * scale[c];
      }
      return Status::ok();
    });
  }

  Direction dir_;
  int64_t axis_;
  const kernels::I8GemmKernel& tier_;
};

template <Direction kDir>
Result<std::unique_ptr<OpKernel>> create_linear_quant(const KernelInit& init) {
  if (init.num_inputs() < 2 || init.num_inputs() > 3 || !init.has_input(0) || !init.has_input(1))
    return init.error("takes x, scale and optional zero_point; got " + std::to_string(init.num_inputs()) + " inputs");
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", 1));
  return make_kernel<LinearQuantKernel>(kDir, axis, init.isa);
}

}  // namespace

TWINRT_REGISTER_OP("QuantizeLinear", 10, create_linear_quant<Direction::kQuantize>);
TWINRT_REGISTER_OP("DequantizeLinear", 10, create_linear_quant<Direction::kDequantize>);

}  // namespace twinrt
