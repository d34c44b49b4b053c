// com.microsoft QLinearAdd / QLinearMul: C = quantize(dequantize(A) op dequantize(B)),
// numpy broadcasting, per-tensor parameters. Inputs: A, A_scale, A_zero_point, B, B_scale,
// B_zero_point, C_scale, C_zero_point (zero points optional).
// The value (scale_a * (a - zero_a) op scale_b * (b - zero_b)) / scale_c is computed in
// double: the products of a float scale and a 9-bit integer are exact there and the rest
// rounds far below a quantization step, so the result is the exactly rounded one (round
// half to even, then the zero point, saturated). Float32 arithmetic, and ONNX Runtime's
// folded scale ratio, put values that lie close to a tie on the wrong side
// (docs/quantization.md).
#include "ops/common/broadcast.h"
#include "ops/common/dispatch.h"
#include "ops/contrib/ms_domain.h"
#include "ops/quant/quant_common.h"

namespace twinrt::contrib {
namespace {

enum class BinaryOp { kAdd, kMul };

class QLinearBinaryKernel final : public OpKernel {
 public:
  explicit QLinearBinaryKernel(BinaryOp op) : op_(op) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* a = ctx.shape(0);
    const ir::Shape* b = ctx.shape(3);
    std::optional<ir::Shape> out;
    if (a && b) out = broadcast_symbolic({a, b});
    ctx.set_output(0, ctx.dtype(0), out);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* a, ctx.tensor_input(0));
    TRY(check_8bit(*a, "A"));
    ASSIGN_OR_RETURN(const Tensor* b, ctx.tensor_input(3));
    if (b->dtype() != a->dtype())
      return invalid_argument(std::string("A and B must have the same type, got ") + dtype_name(a->dtype()) + " and " +
                              dtype_name(b->dtype()));
    ASSIGN_OR_RETURN(QParam pa, read_qparam(ctx, 1, 2, a->dtype(), "A"));
    ASSIGN_OR_RETURN(QParam pb, read_qparam(ctx, 4, 5, a->dtype(), "B"));
    ASSIGN_OR_RETURN(QParam pc, read_qparam(ctx, 6, 7, a->dtype(), "C"));
    ASSIGN_OR_RETURN(std::vector<int64_t> shape, broadcast_shapes({a->shape(), b->shape()}));
    ASSIGN_OR_RETURN(Tensor * c, ctx.output_for_overwrite(0, a->dtype(), shape));
    return dispatch<kU8 | kI8>(a->dtype(), [&](auto* tag) {
      using Q = std::remove_pointer_t<decltype(tag)>;
      const Q* pa_data = a->data<Q>();
      const Q* pb_data = b->data<Q>();
      Q* out = c->data<Q>();
      BroadcastIterator(shape, {a->shape(), b->shape()}).for_each([&](int64_t i, const int64_t* off) {
        const double va = double{pa.scale} * (pa_data[off[0]] - pa.zero);
        const double vb = double{pb.scale} * (pb_data[off[1]] - pb.zero);
        const double v = op_ == BinaryOp::kAdd ? va + vb : va * vb;
        out[i] = quant::quantize_double<Q>(v / pc.scale, pc.zero);
      });
      return Status::ok();
    });
  }

 private:
  BinaryOp op_;
};

template <BinaryOp kOp>
Result<std::unique_ptr<OpKernel>> create(const KernelInit& init) {
  TRY(check_inputs(init, 7, 8, {0, 1, 3, 4, 6}));
  return make_kernel<QLinearBinaryKernel>(kOp);
}

}  // namespace

TWINRT_REGISTER_MS_OP("QLinearAdd", create<BinaryOp::kAdd>);
TWINRT_REGISTER_MS_OP("QLinearMul", create<BinaryOp::kMul>);

}  // namespace twinrt::contrib
