// MatMul: numpy-style batched matrix product (1-D operands promoted, batches broadcast),
// with what graph passes folded into it: Transposes of its operands and result
// (fold_transpose_into_matmul, read and written through strides), a scale
// (fuse_matmul_scale), a bias, a residual and a clamp.
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

// The operands a graph pass fused into the product (fuse_matmul_bias, fuse_residual_add),
// applied in the graph's order: bias, residual, clamp.
struct MatMulFusion {
  const Tensor* bias = nullptr;      // [n]
  const Tensor* residual = nullptr;  // the product's shape
  std::optional<ir::FusedClamp> clamp;
};

// y[i, j] = y[i, j] + bias[j]: the separate Add's operation.
void add_bias_rows(ThreadPool& pool, const float* bias, float* y, int64_t rows, int64_t n) {
  pool.parallel_for(rows, std::max<int64_t>(1, (1 << 14) / std::max<int64_t>(n, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      for (int64_t j = 0; j < n; ++j) y[i * n + j] = y[i * n + j] + bias[j];
  });
}

// y = y * scale: the separate Mul's operation (a Div's, for the powers of two it folds).
void scale_values(ThreadPool& pool, float scale, float* y, int64_t n) {
  pool.parallel_for(n, 1 << 14, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) y[i] = y[i] * scale;
  });
}

class MatMulKernel final : public OpKernel {
 public:
  MatMulKernel(Mode mode, nn::WidenedConstant b, const kernels::F32GemmKernel& tile, nn::PackedF32 b_panels,
               nn::MatMulPerms perms, float scale, bool bias, bool residual, std::optional<ir::FusedClamp> clamp)
      : mode_(mode), perms_(std::move(perms)), scale_(scale), bias_(bias), residual_(residual), clamp_(clamp),
        gemm_(mode), b_widened_(std::move(b)), tile_(tile), b_panels_(std::move(b_panels)) {}

  Status infer(InferContext& ctx) const override {
    std::optional<ir::Shape> y = nn::matmul_shape(ctx.shape(0), ctx.shape(1), perms_);
    if (residual_) y = y && ctx.shape(3) ? std::optional(broadcast_symbolic({&*y, ctx.shape(3)})) : std::nullopt;
    ctx.set_output(0, ctx.dtype(0), y);
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
    ASSIGN_OR_RETURN(nn::MatMulLayout layout, nn::matmul_layout(a->shape(), b->shape(), perms_));
    nn::merge_batches_sharing_b(layout);
    MatMulFusion fused{nullptr, nullptr, clamp_};
    // The passes fuse a bias or residual only with a constant float32 B (then A is float32
    // too), and a scale only from a float32 Mul or Div; a feed or a model that gives
    // another type is refused here rather than run two ways.
    if ((bias_ || residual_ || scale_ != 1.0f) && a->dtype() != DataType::kFloat)
      return invalid_argument(std::string("a MatMul with a fused scale, bias or residual needs float32 inputs, got ") +
                              dtype_name(a->dtype()));
    if (bias_ || residual_) {
      ASSIGN_OR_RETURN(fused, fused_operands(ctx, layout));
    }
    // The residual joins the product's epilogue when it has the product's shape; otherwise
    // the Add runs as its own step.
    if (fused.residual && fused.residual->shape() != layout.out_shape) {
      ASSIGN_OR_RETURN(Tensor product, Tensor::create_for_overwrite(DataType::kFloat, layout.out_shape));
      TRY(multiply(ctx.pool(), layout, *a, *b, MatMulFusion{fused.bias, nullptr, std::nullopt}, product));
      return nn::add_residual_then_clamp<float>(ctx, product, *fused.residual, clamp_);
    }
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, a->dtype(), layout.out_shape));
    return multiply(ctx.pool(), layout, *a, *b, fused, *y);
  }

 private:
  // The fused bias (input 2, [n]) and residual (input 3), checked.
  Result<MatMulFusion> fused_operands(RunContext& ctx, const nn::MatMulLayout& layout) const {
    MatMulFusion fused{nullptr, nullptr, clamp_};
    if (bias_) {
      ASSIGN_OR_RETURN(fused.bias, ctx.tensor_input(2));
      if (fused.bias->dtype() != DataType::kFloat || fused.bias->shape() != std::vector<int64_t>{layout.n})
        return invalid_argument("the fused Add's bias must be float32 [" + std::to_string(layout.n) + "], got " +
                                dtype_name(fused.bias->dtype()) + " " + shape_to_string(fused.bias->shape()));
    }
    if (residual_) {
      ASSIGN_OR_RETURN(fused.residual, ctx.tensor_input(3));
      if (fused.residual->dtype() != DataType::kFloat)
        return invalid_argument(std::string("inputs A and B of the fused Add must have the same type, got float32 and ") +
                                dtype_name(fused.residual->dtype()));
    }
    return fused;
  }

  // y = clamp(a · b + bias + residual); bias and residual only with float32 (see run).
  Status multiply(ThreadPool& pool, const nn::MatMulLayout& layout, const Tensor& a, const Tensor& b,
                  const MatMulFusion& fused, Tensor& y) const {
    return dispatch<kMatMulTypes>(a.dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      using C = nn::compute_t<T>;
      nn::ComputeInput<T> av(a), bv(b, &b_widened_);
      nn::ComputeOutput<T> yv(y);
      const int64_t rows = static_cast<int64_t>(layout.a_offsets.size()) * layout.m, size = rows * layout.n;
      if constexpr (std::is_same_v<T, float>) {
        const float* bias = fused.bias ? fused.bias->data<float>() : nullptr;
        const float* residual = fused.residual ? fused.residual->data<float>() : nullptr;
        if (mode_ != Mode::kReference) {
          TRY(run_tiles(pool, layout, av.data(), bv.data(), b_panels_.match(b), bias, residual, fused.clamp,
                        yv.data()));
        } else {
          run_reference<C>(pool, layout, av.data(), bv.data(), yv.data());
          // The folded Mul or Div as its own rounding, as the separate op did (the
          // reference kernel's alpha would act on the unrounded double sum).
          if (scale_ != 1.0f) scale_values(pool, scale_, yv.data(), size);
          if (bias) add_bias_rows(pool, bias, yv.data(), rows, layout.n);
          if (residual) nn::apply_fused_residual(pool, residual, yv.data(), size);
          nn::apply_fused_clamp(pool, fused.clamp, yv.data(), size);
        }
      } else {
        run_reference<C>(pool, layout, av.data(), bv.data(), yv.data());
        nn::apply_fused_clamp(pool, fused.clamp, yv.data(), size);
      }
      yv.commit();
      return Status::ok();
    });
  }

  template <class C>
  void run_reference(ThreadPool& pool, const nn::MatMulLayout& layout, const C* a, const C* b, C* y) const {
    // The reference kernels read B's rows with unit stride: a B read across its rows (a
    // folded Transpose) is copied into rows first.
    std::vector<C> b_rows;
    const bool b_strided = layout.b_col_stride != 1 && layout.n > 1;
    if (b_strided) {
      b_rows.resize(layout.b_offsets.size() * static_cast<size_t>(layout.k * layout.n));
      for (size_t i = 0; i < layout.b_offsets.size(); ++i)
        for (int64_t p = 0; p < layout.k; ++p)
          for (int64_t j = 0; j < layout.n; ++j)
            b_rows[(i * layout.k + p) * layout.n + j] =
                b[layout.b_offsets[i] + p * layout.b_k_stride + j * layout.b_col_stride];
    }
    std::vector<kernels::GemmProblem<C>> batch;
    for (size_t i = 0; i < layout.a_offsets.size(); ++i) {
      kernels::GemmProblem<C> p;
      p.m = layout.m;
      p.n = layout.n;
      p.k = layout.k;
      p.a = a + layout.a_offsets[i];
      p.a_row_stride = layout.a_row_stride;
      p.a_col_stride = layout.a_k_stride;
      p.b = b_strided ? b_rows.data() + i * layout.k * layout.n : b + layout.b_offsets[i];
      p.ldb = b_strided ? layout.n : layout.b_k_stride;
      p.c = y + layout.c_offsets[i];
      p.ldc = layout.c_row_stride;
      batch.push_back(p);
    }
    nn::parallel_gemm_batch(pool, gemm_.get<C>(), batch);
  }

  // float32 on the tile kernels: B panels packed at creation when B is a constant matrix;
  // the bias, residual and clamp in the tiles' epilogue.
  Status run_tiles(ThreadPool& pool, const nn::MatMulLayout& layout, const float* a, const float* b,
                   const float* b_panels, const float* bias, const float* residual,
                   const std::optional<ir::FusedClamp>& clamp, float* y) const {
    return nn::run_f32_gemms(pool, tile_, static_cast<int64_t>(layout.a_offsets.size()), [&](int64_t i) {
      nn::F32Product p;
      p.m = layout.m;
      p.n = layout.n;
      p.k = layout.k;
      const auto batch = static_cast<size_t>(i);
      p.a.data = a + layout.a_offsets[batch];
      p.a.outer_stride = layout.a_row_stride;
      p.a.k_stride = layout.a_k_stride;
      if (b_panels) {
        p.b.packed = b_panels;
      } else {
        p.b.data = b + layout.b_offsets[batch];
        p.b.outer_stride = layout.b_col_stride;
        p.b.k_stride = layout.b_k_stride;
      }
      p.c = y + layout.c_offsets[batch];
      p.ldc = layout.c_row_stride;
      p.epilogue.alpha = scale_;
      if (bias) {
        p.epilogue.bias = bias;
        p.epilogue.bias_cs = 1;
      }
      if (residual) {
        p.epilogue.residual = residual + layout.c_offsets[batch];
        p.epilogue.residual_rs = layout.c_row_stride;
      }
      nn::set_epilogue_clamp(p.epilogue, clamp);
      return p;
    });
  }

  Mode mode_;
  nn::MatMulPerms perms_;  // folded Transposes
  float scale_;    // a folded Mul or Div (fuse_matmul_scale)
  bool bias_;      // input 2 is a fused bias (fuse_matmul_bias)
  bool residual_;  // input 3 is a fused Add's other operand (fuse_residual_add)
  std::optional<ir::FusedClamp> clamp_;  // a Relu/Clip fused into this node
  nn::GemmKernels gemm_;
  nn::WidenedConstant b_widened_;  // a constant half-type B, widened once
  const kernels::F32GemmKernel& tile_;
  nn::PackedF32 b_panels_;  // a constant float B matrix as the tile kernel's panels
};

Result<std::unique_ptr<OpKernel>> create_matmul(const KernelInit& init) {
  const bool bias = init.node.fused_bias, residual = init.node.fused_residual;
  const size_t inputs = residual ? 4 : bias ? 3 : 2;
  if (init.num_inputs() != inputs || !init.has_input(0) || !init.has_input(1) || (bias && !init.has_input(2)) ||
      (residual && !init.has_input(3)))
    return init.error("MatMul takes two inputs, got " + std::to_string(init.num_inputs()));
  const Tensor* constant_b = init.constant_inputs.size() > 1 ? init.constant_inputs[1] : nullptr;
  ASSIGN_OR_RETURN(nn::WidenedConstant b, nn::WidenedConstant::make(constant_b));
  const kernels::F32GemmKernel& tile = kernels::f32_gemm_kernel(init.isa, init.mode == Mode::kDefault);
  nn::MatMulPerms perms{init.node.fused_perm_a, init.node.fused_perm_b, init.node.fused_perm_y};
  nn::PackedF32 b_panels;
  if (constant_b && constant_b->rank() == 2 && perms.b.empty() && init.mode != Mode::kReference) {
    const int64_t k = constant_b->dim(0), n = constant_b->dim(1);
    ASSIGN_OR_RETURN(b_panels, nn::pack_f32_constant(*constant_b, b, 1, n, k, 1, n, tile.nr));
  }
  return make_kernel<MatMulKernel>(init.mode, std::move(b), tile, std::move(b_panels), std::move(perms),
                                   init.node.fused_scale, bias, residual, init.node.fused_clamp);
}

}  // namespace

TWINRT_REGISTER_OP("MatMul", 1, create_matmul);

}  // namespace twinrt
