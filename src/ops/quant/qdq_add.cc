// QdqAdd (domain ai.twinrt): the residual step of QDQ models,
//   QuantizeLinear([Relu](DequantizeLinear(a) + DequantizeLinear(b)))
// with per-tensor parameters, as one node (made by passes/fuse_qdq_add.cc). It runs the same
// float operations per element as the separate nodes: (float(a - a_zero) * a_scale) +
// (float(b - b_zero) * b_scale), Relu as x < 0 ? 0 : x, then quantize_u8/s8 (the ISA tier's
// copy, same bytes); only
// block by block in L1 instead of through three float tensors, so the bits are the same.
// The usual case (uint8 everywhere, no broadcast) runs the kernels' loop for it, the ISA
// tier's copy where there is one (quant::QdqAddLoop picks it).
// Inputs: a, a_scale, a_zero, b, b_scale, b_zero, y_scale, y_zero; attribute relu (0 or 1).
#include <algorithm>
#include <vector>

#include "kernels/gemm/i8_gemm.h"
#include "ops/binary/broadcast_rows.h"
#include "ops/common/broadcast.h"
#include "ops/op.h"
#include "ops/quant/qdq_add_loop.h"
#include "ops/quant/quant_common.h"

namespace twinrt {
namespace {

struct QParam {
  float scale = 1.0f;
  int32_t zero = 0;
};

// DequantizeLinear's per-tensor expression (ops/quant/quantize_linear.cc).
template <class T>
void dequantize(const T* x, int64_t n, QParam p, float* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(int32_t{x[i]} - p.zero) * p.scale;
}

void dequantize(const Tensor& x, int64_t at, int64_t n, QParam p, float* out) {
  if (x.dtype() == DataType::kUInt8) dequantize(x.data<uint8_t>() + at, n, p, out);
  else dequantize(x.data<int8_t>() + at, n, p, out);
}

bool is_8bit(DataType t) { return t == DataType::kUInt8 || t == DataType::kInt8; }

class QdqAddKernel final : public OpKernel {
 public:
  QdqAddKernel(bool relu, const KernelInit& init)
      : relu_(relu), tier_(kernels::i8_gemm_kernel(init.isa)), loop_(init, {1, 4, 6}, relu, tier_) {}

  Status infer(InferContext& ctx) const override {
    if (ctx.shape(0) && ctx.shape(3)) ctx.set_output(0, ctx.dtype(7), broadcast_symbolic({ctx.shape(0), ctx.shape(3)}));
    else ctx.set_output(0, ctx.dtype(7));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* a, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* b, ctx.tensor_input(3));
    if (a->dtype() != b->dtype() || !is_8bit(a->dtype()))
      return invalid_argument(std::string("a and b must be 8-bit tensors of one type, got ") + dtype_name(a->dtype()) +
                              " and " + dtype_name(b->dtype()));
    ASSIGN_OR_RETURN(QParam pa, param(ctx, 1, a->dtype()));
    ASSIGN_OR_RETURN(QParam pb, param(ctx, 4, b->dtype()));
    ASSIGN_OR_RETURN(const Tensor* yz, ctx.tensor_input(7));
    ASSIGN_OR_RETURN(QParam py, param(ctx, 6, yz->dtype()));
    const std::vector<std::vector<int64_t>> shapes = {a->shape(), b->shape()};
    ASSIGN_OR_RETURN(std::vector<int64_t> out_shape, broadcast_shapes(shapes));  // Add broadcasts
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, yz->dtype(), out_shape));
    BroadcastRows plan(out_shape, shapes);
    constexpr int64_t kBlock = 1024;
    const bool y_unsigned = yz->dtype() == DataType::kUInt8;
    // The tier's loop for the usual residual add: uint8 everywhere, no broadcast.
    const bool tier_loop = y_unsigned && a->dtype() == DataType::kUInt8 && plan.step(0) && plan.step(1);
    const kernels::QdqAddParams qp{pa.scale, pb.scale, py.scale, pa.zero, pb.zero, py.zero, relu_};
    const kernels::I8QdqAddU8Fn add = loop_.for_params(qp);
    for_each_row_block_parallel(plan, ctx.pool(), kBlock, [&](int64_t out_off, const int64_t* in_off, int64_t at, int64_t n) {
      if (tier_loop) {
        add(a->data<uint8_t>() + in_off[0] + at, b->data<uint8_t>() + in_off[1] + at, n, qp, y->data<uint8_t>() + out_off + at);
        return;
      }
      float fa[kBlock], fb[kBlock];
      dequantize(*a, plan.step(0) ? in_off[0] + at : in_off[0], plan.step(0) ? n : 1, pa, fa);
      dequantize(*b, plan.step(1) ? in_off[1] + at : in_off[1], plan.step(1) ? n : 1, pb, fb);
      if (!plan.step(0)) std::fill(fa + 1, fa + n, fa[0]);
      if (!plan.step(1)) std::fill(fb + 1, fb + n, fb[0]);
      for (int64_t i = 0; i < n; ++i) fa[i] = fa[i] + fb[i];
      if (relu_)
        for (int64_t i = 0; i < n; ++i) fa[i] = fa[i] < 0.0f ? 0.0f : fa[i];  // Relu: -0 and NaN kept
      if (y_unsigned) tier_.quantize_u8(fa, n, py.scale, py.zero, y->data<uint8_t>() + out_off + at);
      else tier_.quantize_s8(fa, n, py.scale, py.zero, y->data<int8_t>() + out_off + at);
    });
    return Status::ok();
  }

 private:
  // The scalar scale at `input` and zero point at `input + 1`, of the given type.
  static Result<QParam> param(RunContext& ctx, size_t input, DataType type) {
    ASSIGN_OR_RETURN(const Tensor* s, ctx.tensor_input(input));
    ASSIGN_OR_RETURN(const Tensor* z, ctx.tensor_input(input + 1));
    if (s->numel() != 1 || z->numel() != 1 || z->dtype() != type)
      return invalid_argument("input " + std::to_string(input) + " and " + std::to_string(input + 1) +
                              " must be a scalar scale and a zero point of type " + dtype_name(type));
    ASSIGN_OR_RETURN(std::vector<float> scale, quant::read_scales(*s, "scale"));
    ASSIGN_OR_RETURN(std::vector<int32_t> zero, quant::read_zero_points(*z, "zero_point"));
    return QParam{scale[0], zero[0]};
  }

  bool relu_;
  const kernels::I8GemmKernel& tier_;  // its quantization loops (the same bytes on every tier)
  quant::QdqAddLoop loop_;
};

Result<std::unique_ptr<OpKernel>> create_qdq_add(const KernelInit& init) {
  if (init.num_inputs() != 8 || init.node.outputs.size() != 1)
    return init.error("is not a QdqAdd made by twinrt's graph passes (8 inputs, 1 output)");
  ASSIGN_OR_RETURN(int64_t relu, init.attr_int("relu", 0));
  return make_kernel<QdqAddKernel>(relu != 0, init);
}

}  // namespace

TWINRT_REGISTER_OP_EX(ir::kInternalDomain, "QdqAdd", 1, INT64_MAX, "ref", 0, create_qdq_add);

}  // namespace twinrt
