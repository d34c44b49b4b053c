// MatMul: numpy-style batched matrix product (1-D operands promoted, batches broadcast).
#include "ops/common/dispatch.h"
#include "ops/nn/compute_type.h"
#include "ops/nn/f32_gemm_driver.h"
#include "ops/nn/fused_epilogue.h"
#include "ops/nn/gemm_runner.h"
#include "ops/nn/matmul_layout.h"
#include "ops/op.h"

namespace twinrt {
namespace {

constexpr unsigned kMatMulTypes = kFloats | kI32 | kI64 | kU32 | kU64;

class MatMulKernel final : public OpKernel {
 public:
  MatMulKernel(Mode mode, nn::WidenedConstant b, const kernels::F32GemmKernel& tile, nn::PackedF32 b_panels,
               std::optional<ir::FusedClamp> clamp)
      : mode_(mode), clamp_(clamp), gemm_(mode), b_widened_(std::move(b)), tile_(tile),
        b_panels_(std::move(b_panels)) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, ctx.dtype(0), nn::matmul_shape(ctx.shape(0), ctx.shape(1)));
    return Status::ok();
  }

  bool keeps_copy_of_input(size_t i) const override {
    return i == 1 && mode_ != Mode::kReference && b_panels_.panels.defined();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* a, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* b, ctx.tensor_input(1));
    if (a->dtype() != b->dtype())
      return invalid_argument(std::string("MatMul inputs must have one type, got ") + dtype_name(a->dtype()) +
                              " and " + dtype_name(b->dtype()));
    ASSIGN_OR_RETURN(nn::MatMulLayout layout, nn::matmul_layout(a->shape(), b->shape()));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, a->dtype(), layout.out_shape));
    return dispatch<kMatMulTypes>(a->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      using C = nn::compute_t<T>;
      nn::ComputeInput<T> av(*a), bv(*b, &b_widened_);
      nn::ComputeOutput<T> yv(*y);
      if constexpr (std::is_same_v<C, float>) {
        if (mode_ != Mode::kReference) {
          TRY(run_tiles(ctx.pool(), layout, av.data(), bv.data(), b_panels_.match(*b), yv.data()));
          yv.commit();
          return Status::ok();
        }
      }
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
      nn::apply_fused_clamp(ctx.pool(), clamp_, yv.data(), y->numel());
      yv.commit();
      return Status::ok();
    });
  }

 private:
  // float32 on the tile kernels: B panels packed at creation when B is a constant matrix.
  Status run_tiles(ThreadPool& pool, const nn::MatMulLayout& layout, const float* a, const float* b,
                   const float* b_panels, float* y) const {
    return nn::run_f32_gemms(pool, tile_, static_cast<int64_t>(layout.a_offsets.size()), [&](int64_t i) {
      nn::F32Product p;
      p.m = layout.m;
      p.n = layout.n;
      p.k = layout.k;
      p.a.data = a + layout.a_offsets[static_cast<size_t>(i)];
      p.a.outer_stride = layout.k;
      p.a.k_stride = 1;
      if (b_panels) {
        p.b.packed = b_panels;
      } else {
        p.b.data = b + layout.b_offsets[static_cast<size_t>(i)];
        p.b.outer_stride = 1;
        p.b.k_stride = layout.n;
      }
      p.c = y + i * layout.m * layout.n;
      p.ldc = layout.n;
      nn::set_epilogue_clamp(p.epilogue, clamp_);
      return p;
    });
  }

  Mode mode_;
  std::optional<ir::FusedClamp> clamp_;  // a Relu/Clip fused into this node
  nn::GemmKernels gemm_;
  nn::WidenedConstant b_widened_;  // a constant half-type B, widened once
  const kernels::F32GemmKernel& tile_;
  nn::PackedF32 b_panels_;  // a constant float B matrix as the tile kernel's panels
};

Result<std::unique_ptr<OpKernel>> create_matmul(const KernelInit& init) {
  if (init.num_inputs() != 2 || !init.has_input(0) || !init.has_input(1))
    return init.error("MatMul takes two inputs, got " + std::to_string(init.num_inputs()));
  const Tensor* constant_b = init.constant_inputs.size() > 1 ? init.constant_inputs[1] : nullptr;
  ASSIGN_OR_RETURN(nn::WidenedConstant b, nn::WidenedConstant::make(constant_b));
  const kernels::F32GemmKernel& tile = kernels::f32_gemm_kernel(init.isa, init.mode == Mode::kDefault);
  nn::PackedF32 b_panels;
  if (constant_b && constant_b->rank() == 2 && init.mode != Mode::kReference) {
    const int64_t k = constant_b->dim(0), n = constant_b->dim(1);
    ASSIGN_OR_RETURN(b_panels, nn::pack_f32_constant(*constant_b, b, 1, n, k, 1, n, tile.nr));
  }
  return make_kernel<MatMulKernel>(init.mode, std::move(b), tile, std::move(b_panels), init.node.fused_clamp);
}

}  // namespace

TWINRT_REGISTER_OP("MatMul", 1, create_matmul);

}  // namespace twinrt
