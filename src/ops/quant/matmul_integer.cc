// MatMulInteger: int32 = (A - a_zero_point) · (B - b_zero_point), numpy-batched.
// QLinearMatMul: the same product requantized with a_scale * b_scale / y_scale.
#include "ops/common/dispatch.h"
#include "ops/quant/integer_product.h"
#include "ops/quant/quant_common.h"

namespace twinrt {
namespace {

using quant::OperandParams;
using quant::read_params;

// Which inputs hold what: MatMulInteger (A, B, a_zp, b_zp) or QLinearMatMul (a, a_scale,
// a_zp, b, b_scale, b_zp, y_scale, y_zp).
struct Inputs {
  size_t a, b, a_zero, b_zero;
};
constexpr Inputs kInteger = {0, 1, 2, 3};
constexpr Inputs kQLinear = {0, 3, 2, 5};

// Per-column multipliers of one output row: a_scale * b_scale[j] / y_scale.
std::vector<float> row_multipliers(float a_scale, const OperandParams<float>& sb, float y_scale, int64_t n) {
  std::vector<float> out(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) out[static_cast<size_t>(j)] = a_scale * sb.values[static_cast<size_t>(j * sb.stride)] / y_scale;
  return out;
}

// One output row through the tier's requantization (every tier gives the same bytes).
template <class Q>
void requantize_row(const kernels::I8GemmKernel& tier, const int32_t* acc, int64_t n, const float* multiplier,
                    int32_t zero, Q* out) {
  if constexpr (std::is_same_v<Q, uint8_t>) tier.requantize_u8(acc, n, 0, multiplier, 1, zero, out);
  else tier.requantize_s8(acc, n, 0, multiplier, 1, zero, out);
}

class QMatMulKernel final : public OpKernel {
 public:
  QMatMulKernel(bool qlinear, Isa isa, std::optional<quant::I8Weights> packed)
      : qlinear_(qlinear), in_(qlinear ? kQLinear : kInteger), tier_(kernels::i8_gemm_kernel(isa)),
        packed_(std::move(packed)) {}

  Status infer(InferContext& ctx) const override {
    const DataType out = qlinear_ ? ctx.dtype(7) : DataType::kInt32;
    ctx.set_output(0, out, nn::matmul_shape(ctx.shape(in_.a), ctx.shape(in_.b)));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* a, ctx.tensor_input(in_.a));
    ASSIGN_OR_RETURN(const Tensor* b, ctx.tensor_input(in_.b));
    ASSIGN_OR_RETURN(nn::MatMulLayout l, nn::matmul_layout(a->shape(), b->shape()));
    for (auto [input, operand] : {std::pair{in_.a_zero, a}, std::pair{in_.b_zero, b}})
      if (ctx.has_input(input) && ctx.input(input).dtype() != operand->dtype())
        return invalid_argument("zero point input " + std::to_string(input) + " must have its operand's type " +
                                dtype_name(operand->dtype()) + ", got " + dtype_name(ctx.input(input).dtype()));
    ASSIGN_OR_RETURN(auto za, read_params<int32_t>(ctx, in_.a_zero, l.m, "a_zero_point", quant::read_zero_points));
    ASSIGN_OR_RETURN(auto zb, read_params<int32_t>(ctx, in_.b_zero, l.n, "b_zero_point", quant::read_zero_points));
    if (!qlinear_) {
      ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, DataType::kInt32, l.out_shape));
      return quant::integer_product(ctx, *a, *b, l, za, zb, packed_ ? &*packed_ : nullptr, y->data<int32_t>());
    }
    return run_qlinear(ctx, *a, *b, l, za, zb);
  }

 private:
  Status run_qlinear(RunContext& ctx, const Tensor& a, const Tensor& b, const nn::MatMulLayout& l,
                     const OperandParams<int32_t>& za, const OperandParams<int32_t>& zb) const {
    ASSIGN_OR_RETURN(auto sa, read_params<float>(ctx, 1, l.m, "a_scale", quant::read_scales));
    ASSIGN_OR_RETURN(auto sb, read_params<float>(ctx, 4, l.n, "b_scale", quant::read_scales));
    ASSIGN_OR_RETURN(const Tensor* ys_t, ctx.tensor_input(6));
    ASSIGN_OR_RETURN(const Tensor* yz_t, ctx.tensor_input(7));
    if (ys_t->numel() != 1 || yz_t->numel() != 1)
      return invalid_argument("y_scale and y_zero_point must be scalars, got " + shape_to_string(ys_t->shape()) +
                              " and " + shape_to_string(yz_t->shape()));
    ASSIGN_OR_RETURN(std::vector<float> y_scale, quant::read_scales(*ys_t, "y_scale"));
    ASSIGN_OR_RETURN(std::vector<int32_t> y_zero, quant::read_zero_points(*yz_t, "y_zero_point"));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, yz_t->dtype(), l.out_shape));
    return dispatch<kU8 | kI8>(yz_t->dtype(), [&](auto* tag) {
      using Q = std::remove_pointer_t<decltype(tag)>;
      Q* out = y->data<Q>();
      if (packed_ && za.stride == 0 && sa.stride == 0 && l.k > 0) {  // k = 0: every output is y_zero_point
        const std::vector<float> mult = row_multipliers(sa.values[0], sb, y_scale[0], l.n);
        quant::packed_product(ctx, a, l, za, zb, *packed_, [&](int64_t r0, int64_t rows, int64_t c0, int64_t cols, const int32_t* acc, int64_t ld) {
          for (int64_t i = 0; i < rows; ++i)
            requantize_row(tier_, acc + i * ld, cols, mult.data() + c0, y_zero[0], out + (r0 + i) * l.n + c0);
        });
        return Status::ok();
      }
      std::vector<int32_t> acc(static_cast<size_t>(shape_numel(l.out_shape)));
      TRY(quant::integer_product(ctx, a, b, l, za, zb, nullptr, acc.data()));
      const int64_t rows = static_cast<int64_t>(acc.size()) / std::max<int64_t>(l.n, 1);
      for (int64_t r = 0; r < rows; ++r) {
        const std::vector<float> mult = row_multipliers(sa.values[static_cast<size_t>(r % l.m * sa.stride)], sb, y_scale[0], l.n);
        requantize_row(tier_, acc.data() + r * l.n, l.n, mult.data(), y_zero[0], out + r * l.n);
      }
      return Status::ok();
    });
  }

  bool qlinear_;
  Inputs in_;
  const kernels::I8GemmKernel& tier_;
  std::optional<quant::I8Weights> packed_;  // B packed when it is a constant
};

// B packed at session creation when it is a 2-D 8-bit constant.
std::optional<quant::I8Weights> pack_constant_b(const KernelInit& init, size_t b) {
  const Tensor* t = b < init.constant_inputs.size() ? init.constant_inputs[b] : nullptr;
  return t ? quant::pack_matmul_weights(init.isa, *t) : std::nullopt;
}

Result<std::unique_ptr<OpKernel>> create_matmul_integer(const KernelInit& init) {
  if (init.num_inputs() < 2 || init.num_inputs() > 4 || !init.has_input(0) || !init.has_input(1))
    return init.error("MatMulInteger takes A, B and optional zero points; got " + std::to_string(init.num_inputs()) + " inputs");
  return make_kernel<QMatMulKernel>(false, init.isa, pack_constant_b(init, kInteger.b));
}

Result<std::unique_ptr<OpKernel>> create_qlinear_matmul(const KernelInit& init) {
  if (init.num_inputs() != 8)
    return init.error("QLinearMatMul takes 8 inputs, got " + std::to_string(init.num_inputs()));
  for (size_t i = 0; i < 8; ++i)
    if (!init.has_input(i)) return init.error("QLinearMatMul input " + std::to_string(i) + " is missing");
  return make_kernel<QMatMulKernel>(true, init.isa, pack_constant_b(init, kQLinear.b));
}

}  // namespace

TWINRT_REGISTER_OP("MatMulInteger", 10, create_matmul_integer);
TWINRT_REGISTER_OP("QLinearMatMul", 10, create_qlinear_matmul);

}  // namespace twinrt
