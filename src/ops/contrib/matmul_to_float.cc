// com.microsoft MatMulIntegerToFloat and DynamicQuantizeMatMul: an 8-bit matrix product
// scaled back to float32,
//   Y = float(A_q - a_zero) · (B - b_zero) * (a_scale * b_scale[j]) + bias[j]
// with the int32 product of MatMulInteger (packed constant B included). Inputs:
//   MatMulIntegerToFloat: A, B, a_scale, b_scale, a_zero_point, b_zero_point, bias
//   DynamicQuantizeMatMul: A (float32, quantized to uint8 as DynamicQuantizeLinear does),
//                          B, b_scale, b_zero_point, bias
// a_scale and a_zero_point are per tensor; b_scale and b_zero_point per tensor or one per
// column of B; bias has one value per column.
#include "ops/contrib/ms_domain.h"
#include "ops/quant/integer_product.h"
#include "ops/quant/quant_common.h"

namespace twinrt::contrib {
namespace {

using quant::OperandParams;
using quant::read_params;

struct Inputs {
  size_t b, b_scale, b_zero, bias;
};
constexpr Inputs kToFloat = {1, 3, 5, 6};
constexpr Inputs kDynamic = {1, 2, 3, 4};

class MatMulToFloatKernel final : public OpKernel {
 public:
  MatMulToFloatKernel(bool dynamic, Isa isa, std::optional<quant::I8Weights> packed)
      : dynamic_(dynamic), in_(dynamic ? kDynamic : kToFloat), tier_(kernels::i8_gemm_kernel(isa)), packed_(std::move(packed)) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, DataType::kFloat, nn::matmul_shape(ctx.shape(0), ctx.shape(in_.b)));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* a_in, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* b, ctx.tensor_input(in_.b));
    if (b->dtype() != DataType::kUInt8 && b->dtype() != DataType::kInt8)
      return invalid_argument(std::string("B must be uint8 or int8, got ") + dtype_name(b->dtype()));
    ASSIGN_OR_RETURN(nn::MatMulLayout l, nn::matmul_layout(a_in->shape(), b->shape()));
    Tensor a_q;  // A as 8 bits: the input, or DynamicQuantizeMatMul's quantized copy
    QParam pa;
    if (dynamic_) {
      if (a_in->dtype() != DataType::kFloat)
        return invalid_argument(std::string("A must be float32, got ") + dtype_name(a_in->dtype()));
      ASSIGN_OR_RETURN(a_q, Tensor::create_for_overwrite(DataType::kUInt8, a_in->shape()));
      uint8_t zero;
      quant::dynamic_quantize(a_in->data<float>(), a_in->numel(), a_q.data<uint8_t>(), pa.scale, zero,
                              tier_.quantize_u8);
      pa.zero = zero;
    } else {
      if (a_in->dtype() != DataType::kUInt8 && a_in->dtype() != DataType::kInt8)
        return invalid_argument(std::string("A must be uint8 or int8, got ") + dtype_name(a_in->dtype()));
      a_q = *a_in;
      ASSIGN_OR_RETURN(pa, read_qparam(ctx, 2, 4, a_in->dtype(), "a"));
    }
    if (ctx.has_input(in_.b_zero) && ctx.input(in_.b_zero).dtype() != b->dtype())
      return invalid_argument(std::string("b_zero_point must have B's type ") + dtype_name(b->dtype()) + ", got " +
                              dtype_name(ctx.input(in_.b_zero).dtype()));
    ASSIGN_OR_RETURN(auto sb, read_params<float>(ctx, in_.b_scale, l.n, "b_scale", quant::read_scales));
    ASSIGN_OR_RETURN(auto zb, read_params<int32_t>(ctx, in_.b_zero, l.n, "b_zero_point", quant::read_zero_points));
    ASSIGN_OR_RETURN(std::vector<float> bias, read_bias(ctx, l.n));
    OperandParams<int32_t> za;
    za.values = {pa.zero};
    std::vector<float> scale(static_cast<size_t>(l.n));
    for (int64_t j = 0; j < l.n; ++j) scale[static_cast<size_t>(j)] = pa.scale * sb.values[static_cast<size_t>(j * sb.stride)];
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, DataType::kFloat, l.out_shape));
    float* out = y->data<float>();
    const float* bias_data = bias.empty() ? nullptr : bias.data();
    if (packed_ && l.k > 0) {  // each block scaled while it is in cache
      quant::packed_product(ctx, a_q, l, za, zb, *packed_,
                            [&](int64_t r0, int64_t rows, int64_t c0, int64_t cols, const int32_t* acc, int64_t ld) {
                              for (int64_t i = 0; i < rows; ++i)
                                scale_row(acc + i * ld, cols, scale.data() + c0, bias_data ? bias_data + c0 : nullptr,
                                          out + (r0 + i) * l.n + c0);
                            });
      return Status::ok();
    }
    std::vector<int32_t> acc(static_cast<size_t>(shape_numel(l.out_shape)), 0);
    TRY(quant::integer_product(ctx, a_q, *b, l, za, zb, nullptr, acc.data()));
    for (size_t r = 0; r * static_cast<size_t>(l.n) < acc.size(); ++r)
      scale_row(acc.data() + r * l.n, l.n, scale.data(), bias_data, out + r * l.n);
    return Status::ok();
  }

 private:
  // y[j] = float(acc[j]) * scale[j] (+ bias[j]): per element the float operations of
  // Cast -> Mul -> Add in that order (no "+ 0" without a bias: it would turn -0 into +0),
  // which the fuse_matmul_integer_to_float pass relies on to be bit-preserving.
  static void scale_row(const int32_t* acc, int64_t n, const float* scale, const float* bias, float* y) {
    if (bias) {
      for (int64_t j = 0; j < n; ++j) y[j] = static_cast<float>(acc[j]) * scale[j] + bias[j];
    } else {
      for (int64_t j = 0; j < n; ++j) y[j] = static_cast<float>(acc[j]) * scale[j];
    }
  }

  Result<std::vector<float>> read_bias(RunContext& ctx, int64_t n) const {
    if (!ctx.has_input(in_.bias)) return std::vector<float>{};
    ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(in_.bias));
    if (t->dtype() != DataType::kFloat || t->rank() != 1 || t->dim(0) != n)
      return invalid_argument("bias must be a float32 tensor of shape [" + std::to_string(n) + "], got " +
                              dtype_name(t->dtype()) + shape_to_string(t->shape()));
    return std::vector<float>(t->data<float>(), t->data<float>() + n);
  }

  bool dynamic_;
  Inputs in_;
  const kernels::I8GemmKernel& tier_;
  std::optional<quant::I8Weights> packed_;
};

std::optional<quant::I8Weights> pack_b(const KernelInit& init, size_t b) {
  const Tensor* t = b < init.constant_inputs.size() ? init.constant_inputs[b] : nullptr;
  return t ? quant::pack_matmul_weights(init.isa, *t) : std::nullopt;
}

Result<std::unique_ptr<OpKernel>> create_to_float(const KernelInit& init) {
  TRY(check_inputs(init, 4, 7, {0, 1, 2, 3}));
  return make_kernel<MatMulToFloatKernel>(false, init.isa, pack_b(init, kToFloat.b));
}

Result<std::unique_ptr<OpKernel>> create_dynamic(const KernelInit& init) {
  TRY(check_inputs(init, 3, 5, {0, 1, 2}));
  return make_kernel<MatMulToFloatKernel>(true, init.isa, pack_b(init, kDynamic.b));
}

}  // namespace

TWINRT_REGISTER_MS_OP("MatMulIntegerToFloat", create_to_float);
TWINRT_REGISTER_MS_OP("DynamicQuantizeMatMul", create_dynamic);
// What the fuse_matmul_integer_to_float pass writes (the same kernel, in twinrt's own domain).
TWINRT_REGISTER_OP_EX(ir::kInternalDomain, "MatMulIntegerToFloat", 1, INT64_MAX, "ref", 0, create_to_float);

}  // namespace twinrt::contrib
