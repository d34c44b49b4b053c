// DynamicQuantizeLinear: chooses a uint8 scale and zero point covering [min(x, 0),
// max(x, 0)] and quantizes x with them. All arithmetic is float32, as the spec's
// reference computes it, so the integer outputs match exactly.
#include <algorithm>

#include "kernels/gemm/i8_gemm.h"
#include "ops/op.h"
#include "ops/quant/quant_common.h"

namespace twinrt {
namespace {

class DynamicQuantizeKernel final : public OpKernel {
 public:
  explicit DynamicQuantizeKernel(Isa isa) : quantize_(kernels::i8_gemm_kernel(isa).quantize_u8) {}

  Status infer(InferContext& ctx) const override {
    std::optional<ir::Shape> shape;
    if (ctx.shape(0)) shape = *ctx.shape(0);
    ctx.set_output(0, DataType::kUInt8, shape);
    if (ctx.output_types.size() > 1) ctx.set_output(1, DataType::kFloat, ir::Shape{});
    if (ctx.output_types.size() > 2) ctx.set_output(2, DataType::kUInt8, ir::Shape{});
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    if (x->dtype() != DataType::kFloat)
      return invalid_argument(std::string("DynamicQuantizeLinear takes float32, got ") + dtype_name(x->dtype()));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, DataType::kUInt8, x->shape()));
    float scale;
    uint8_t zero;
    quant::dynamic_quantize(x->data<float>(), x->numel(), y->data<uint8_t>(), scale, zero, quantize_);
    if (ctx.num_outputs() > 1 && ctx.output_requested(1)) {
      ASSIGN_OR_RETURN(Tensor * s, ctx.output(1, DataType::kFloat, {}));
      s->data<float>()[0] = scale;
    }
    if (ctx.num_outputs() > 2 && ctx.output_requested(2)) {
      ASSIGN_OR_RETURN(Tensor * z, ctx.output(2, DataType::kUInt8, {}));
      z->data<uint8_t>()[0] = zero;
    }
    return Status::ok();
  }

 private:
  kernels::I8QuantizeU8Fn quantize_;  // the CPU tier's (AVX2: 8 lanes), same bytes as the scalar one
};

Result<std::unique_ptr<OpKernel>> create_dynamic_quantize(const KernelInit& init) {
  if (init.num_inputs() != 1 || !init.has_input(0) || init.num_outputs() > 3)
    return init.error("DynamicQuantizeLinear takes one input and gives at most three outputs");
  return make_kernel<DynamicQuantizeKernel>(init.isa);
}

}  // namespace

void quant::dynamic_quantize(const float* x, int64_t n, uint8_t* out, float& scale, uint8_t& zero,
                             kernels::I8QuantizeU8Fn quantize) {
  float lo, hi;
  kernels::f32_range_with_zero(x, n, lo, hi);
  scale = hi == lo ? 1.0f : (hi - lo) / 255.0f;
  const float initial_zero = 0.0f - lo / scale;
  zero = quant::quantize<uint8_t>(std::clamp(initial_zero, 0.0f, 255.0f), 0);
  quantize(x, n, scale, zero, out);
}

TWINRT_REGISTER_OP("DynamicQuantizeLinear", 11, create_dynamic_quantize);

}  // namespace twinrt
