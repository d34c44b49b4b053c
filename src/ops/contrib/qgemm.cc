// com.microsoft QGemm: Gemm on 8-bit A and B with an int32 C,
//   acc = (A' - a_zero) · (B' - b_zero) + C        (A' = transA ? Aᵀ : A, likewise B')
//   Y = requantize(acc, alpha * a_scale * b_scale[j] / y_scale) + y_zero   when y_scale is given
//   Y = float(acc) * (alpha * a_scale * b_scale[j])                         otherwise (float32)
// Inputs: A, a_scale, a_zero_point, B, b_scale, b_zero_point, C, y_scale, y_zero_point (C and
// the y pair optional). C must be quantized with scale alpha * a_scale * b_scale and zero
// point 0, so it is added to the integer sums. b_scale / b_zero_point may be per column.
#include "kernels/gemm/i8_gemm.h"
#include "ops/common/broadcast.h"
#include "ops/common/dispatch.h"
#include "ops/contrib/ms_domain.h"
#include "ops/quant/integer_product.h"
#include "ops/quant/quant_common.h"

namespace twinrt::contrib {
namespace {

using quant::OperandParams;
using quant::read_params;

// A 2-D 8-bit tensor transposed into a new tensor (bytes only: the type does not matter).
Result<Tensor> transposed(const Tensor& t) {
  ASSIGN_OR_RETURN(Tensor out, Tensor::create_for_overwrite(t.dtype(), {t.dim(1), t.dim(0)}));
  const uint8_t* in = t.data<uint8_t>();
  uint8_t* o = out.data<uint8_t>();
  for (int64_t i = 0; i < t.dim(0); ++i)
    for (int64_t j = 0; j < t.dim(1); ++j) o[j * t.dim(0) + i] = in[i * t.dim(1) + j];
  return out;
}

Status check_8bit_matrix(const Tensor& t, const char* name) {
  if (t.dtype() != DataType::kUInt8 && t.dtype() != DataType::kInt8)
    return invalid_argument(std::string(name) + " must be uint8 or int8, got " + dtype_name(t.dtype()));
  if (t.rank() != 2) return invalid_argument(std::string(name) + " must be 2-D, got shape " + shape_to_string(t.shape()));
  return Status::ok();
}

class QGemmKernel final : public OpKernel {
 public:
  QGemmKernel(float alpha, bool trans_a, bool trans_b, Isa isa, std::optional<quant::I8Weights> packed)
      : alpha_(alpha), trans_a_(trans_a), trans_b_(trans_b), tier_(kernels::i8_gemm_kernel(isa)),
        packed_(std::move(packed)) {}

  Status infer(InferContext& ctx) const override {
    const DataType out = ctx.has_input(7) ? (ctx.has_input(8) ? ctx.dtype(8) : DataType::kUInt8) : DataType::kFloat;
    const auto a = ctx.static_shape(0), b = ctx.static_shape(3);
    if (a && b && a->size() == 2 && b->size() == 2)
      ctx.set_output(0, out, std::vector<int64_t>{(*a)[trans_a_ ? 1 : 0], (*b)[trans_b_ ? 0 : 1]});
    else
      ctx.set_output(0, out);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* a_in, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* b_in, ctx.tensor_input(3));
    TRY(check_8bit_matrix(*a_in, "A"));
    TRY(check_8bit_matrix(*b_in, "B"));
    Tensor a = *a_in, b = *b_in;
    if (trans_a_) {
      ASSIGN_OR_RETURN(a, transposed(*a_in));
    }
    if (trans_b_ && !packed_) {
      ASSIGN_OR_RETURN(b, transposed(*b_in));
    }
    const std::vector<int64_t> b_shape = trans_b_ ? std::vector<int64_t>{b_in->dim(1), b_in->dim(0)} : b_in->shape();
    if (a.dim(1) != b_shape[0])
      return invalid_argument("A' is " + shape_to_string(a.shape()) + " and B' is " + shape_to_string(b_shape) +
                              ": their inner dimensions differ");
    ASSIGN_OR_RETURN(nn::MatMulLayout l, nn::matmul_layout(a.shape(), b_shape));
    ASSIGN_OR_RETURN(QParam pa, read_qparam(ctx, 1, 2, a.dtype(), "a"));
    if (ctx.has_input(5) && ctx.input(5).dtype() != b.dtype())
      return invalid_argument(std::string("b_zero_point must have B's type ") + dtype_name(b.dtype()) + ", got " +
                              dtype_name(ctx.input(5).dtype()));
    ASSIGN_OR_RETURN(auto sb, read_params<float>(ctx, 4, l.n, "b_scale", quant::read_scales));
    ASSIGN_OR_RETURN(auto zb, read_params<int32_t>(ctx, 5, l.n, "b_zero_point", quant::read_zero_points));
    OperandParams<int32_t> za;
    za.values = {pa.zero};
    std::vector<int32_t> acc(static_cast<size_t>(l.m * l.n), 0);
    TRY(add_bias(ctx, l, acc));
    std::vector<int32_t> product(acc.size(), 0);
    TRY(quant::integer_product(ctx, a, b, l, za, zb, packed_ ? &*packed_ : nullptr, product.data()));
    for (size_t i = 0; i < acc.size(); ++i)  // int32 wraparound, like the kernels' sums
      acc[i] = static_cast<int32_t>(static_cast<uint32_t>(acc[i]) + static_cast<uint32_t>(product[i]));
    // Per-column multipliers: alpha * a_scale * b_scale[j] (/ y_scale).
    std::vector<float> mult(static_cast<size_t>(l.n));
    for (int64_t j = 0; j < l.n; ++j) mult[static_cast<size_t>(j)] = alpha_ * pa.scale * sb.values[static_cast<size_t>(j * sb.stride)];
    if (!ctx.has_input(7)) {
      ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, DataType::kFloat, l.out_shape));
      float* out = y->data<float>();
      for (size_t i = 0; i < acc.size(); ++i) out[i] = static_cast<float>(acc[i]) * mult[i % static_cast<size_t>(l.n)];
      return Status::ok();
    }
    const DataType yt = ctx.has_input(8) ? ctx.input(8).dtype() : DataType::kUInt8;
    ASSIGN_OR_RETURN(QParam py, read_qparam(ctx, 7, 8, yt, "y"));
    for (float& m : mult) m /= py.scale;
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, yt, l.out_shape));
    return dispatch<kU8 | kI8>(yt, [&](auto* tag) {
      using Q = std::remove_pointer_t<decltype(tag)>;
      for (int64_t r = 0; r < l.m; ++r) {
        Q* out = y->data<Q>() + r * l.n;
        if constexpr (std::is_same_v<Q, uint8_t>) tier_.requantize_u8(acc.data() + r * l.n, l.n, 0, mult.data(), 1, py.zero, out);
        else tier_.requantize_s8(acc.data() + r * l.n, l.n, 0, mult.data(), 1, py.zero, out);
      }
      return Status::ok();
    });
  }

 private:
  // C (int32, unidirectionally broadcast to [M, N]) into acc.
  Status add_bias(RunContext& ctx, const nn::MatMulLayout& l, std::vector<int32_t>& acc) const {
    if (!ctx.has_input(6)) return Status::ok();
    ASSIGN_OR_RETURN(const Tensor* c, ctx.tensor_input(6));
    if (c->dtype() != DataType::kInt32) return invalid_argument(std::string("C must be int32, got ") + dtype_name(c->dtype()));
    const std::vector<int64_t> out = {l.m, l.n};
    auto shape = broadcast_shapes({c->shape(), out});
    if (!shape.is_ok() || *shape != out)
      return invalid_argument("C of shape " + shape_to_string(c->shape()) + " does not broadcast to [" +
                              std::to_string(l.m) + "," + std::to_string(l.n) + "]");
    const int32_t* cv = c->data<int32_t>();
    BroadcastIterator(out, {c->shape()}).for_each([&](int64_t i, const int64_t* off) { acc[static_cast<size_t>(i)] = cv[off[0]]; });
    return Status::ok();
  }

  float alpha_;
  bool trans_a_, trans_b_;
  const kernels::I8GemmKernel& tier_;
  std::optional<quant::I8Weights> packed_;  // B' packed when B is a constant
};

Result<std::unique_ptr<OpKernel>> create(const KernelInit& init) {
  TRY(check_inputs(init, 6, 9, {0, 1, 3, 4}));
  if (init.has_input(8) && !init.has_input(7)) return init.error("QGemm has y_zero_point without y_scale");
  ASSIGN_OR_RETURN(float alpha, init.attr_float("alpha", 1.0f));
  ASSIGN_OR_RETURN(int64_t trans_a, init.attr_int("transA", 0));
  ASSIGN_OR_RETURN(int64_t trans_b, init.attr_int("transB", 0));
  std::optional<quant::I8Weights> packed;
  if (const Tensor* b = init.constant_inputs.size() > 3 ? init.constant_inputs[3] : nullptr; b && b->rank() == 2) {
    if (trans_b) {
      auto t = transposed(*b);
      if (t.is_ok()) packed = quant::pack_matmul_weights(init.isa, *t);
    } else {
      packed = quant::pack_matmul_weights(init.isa, *b);
    }
  }
  return make_kernel<QGemmKernel>(alpha, trans_a != 0, trans_b != 0, init.isa, std::move(packed));
}

}  // namespace

TWINRT_REGISTER_MS_OP("QGemm", create);
// What the fuse_qdq pass writes for a Gemm of dequantized operands (the same kernel, in twinrt's own domain).
TWINRT_REGISTER_OP_EX(ir::kInternalDomain, "QGemm", 1, INT64_MAX, "ref", 0, create);

}  // namespace twinrt::contrib
