// MatMul: numpy-style batched matrix product (1-D operands promoted, batches broadcast).
#include "ops/common/dispatch.h"
#include "ops/nn/compute_type.h"
#include "ops/nn/gemm_runner.h"
#include "ops/nn/matmul_layout.h"
#include "ops/op.h"

namespace twinrt {
namespace {

constexpr unsigned kMatMulTypes = kFloats | kI32 | kI64 | kU32 | kU64;

class MatMulKernel final : public OpKernel {
 public:
  MatMulKernel(Mode mode, nn::WidenedConstant b) : gemm_(mode), b_widened_(std::move(b)) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0), nn::matmul_shape(ctx.shape(0), ctx.shape(1)));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* a, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* b, ctx.tensor_input(1));
    if (a->dtype() != b->dtype())
      return invalid_argument(std::string("MatMul inputs must have one type, got ") + dtype_name(a->dtype()) +
                              " and " + dtype_name(b->dtype()));
    ASSIGN_OR_RETURN(nn::MatMulLayout layout, nn::matmul_layout(a->shape(), b->shape()));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, a->dtype(), layout.out_shape));
    return dispatch<kMatMulTypes>(a->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      using C = nn::compute_t<T>;
      nn::ComputeInput<T> av(*a), bv(*b, &b_widened_);
      nn::ComputeOutput<T> yv(*y);
      std::vector<kernels::GemmProblem<C>> batch;
      for (size_t i = 0; i < layout.a_offsets.size(); ++i) {
        kernels::GemmProblem<C> p;
        p.m = layout.m;
        p.n = layout.n;
        p.k = layout.k;
        p.a = av.data() + layout.a_offsets[i];
        p.a_row_stride = layout.k;
        p.b = bv.data() + layout.b_offsets[i];
        p.ldb = layout.n;
        p.c = yv.data() + static_cast<int64_t>(i) * layout.m * layout.n;
        p.ldc = layout.n;
        batch.push_back(p);
      }
      nn::parallel_gemm_batch(ctx.pool(), gemm_.get<C>(), batch);
      yv.commit();
      return Status::ok();
    });
  }

 private:
  nn::GemmKernels gemm_;
  nn::WidenedConstant b_widened_;  // a constant half-type B, widened once
};

Result<std::unique_ptr<OpKernel>> create_matmul(const KernelInit& init) {
  if (init.num_inputs() != 2 || !init.has_input(0) || !init.has_input(1))
    return init.error("MatMul takes two inputs, got " + std::to_string(init.num_inputs()));
  ASSIGN_OR_RETURN(nn::WidenedConstant b, nn::WidenedConstant::make(init.constant_inputs.size() > 1 ? init.constant_inputs[1] : nullptr));
  return make_kernel<MatMulKernel>(init.mode, std::move(b));
}

}  // namespace

TWINRT_REGISTER_OP("MatMul", 1, create_matmul);

}  // namespace twinrt
