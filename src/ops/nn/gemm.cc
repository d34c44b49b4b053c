// Gemm: Y = alpha * A' * B' + beta * C with optional transposes and a broadcast C.
#include "ops/common/dispatch.h"
#include "ops/nn/compute_type.h"
#include "ops/nn/f32_gemm_driver.h"
#include "ops/nn/fused_epilogue.h"
#include "ops/nn/gemm_runner.h"
#include "ops/op.h"

namespace twinrt {
namespace {

constexpr unsigned kGemmTypes = kFloats | kI32 | kI64 | kU32 | kU64;

struct GemmAttrs {
  bool trans_a = false, trans_b = false;
  float alpha = 1, beta = 1;
  bool exact_c_shape = false;  // opset < 7 without `broadcast`: C must be M x N
};

// B as a row-major K x N matrix of the compute type (transposed and widened as needed).
template <class T>
Result<Tensor> pack_b(const Tensor& b, bool trans) {
  using C = nn::compute_t<T>;
  const int64_t k = trans ? b.dim(1) : b.dim(0), n = trans ? b.dim(0) : b.dim(1);
  ASSIGN_OR_RETURN(Tensor out, Tensor::create(dtype_of<C>(), {k, n}));
  const T* src = b.data<T>();
  C* dst = out.data<C>();
  for (int64_t r = 0; r < k; ++r)
    for (int64_t c = 0; c < n; ++c) dst[r * n + c] = nn::to_compute(trans ? src[c * k + r] : src[r * n + c]);
  return out;
}

class GemmKernel final : public OpKernel {
 public:
  GemmKernel(GemmAttrs attrs, Mode mode, Tensor packed_b, const void* packed_from,
             const kernels::F32GemmKernel& tile, nn::PackedF32 b_panels, std::optional<ir::FusedClamp> clamp)
      : attrs_(attrs), mode_(mode), clamp_(clamp), gemm_(mode), packed_b_(std::move(packed_b)),
        packed_from_(packed_from), tile_(tile), b_panels_(std::move(b_panels)) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* a = ctx.shape(0);
    const ir::Shape* b = ctx.shape(1);
    if (a && b && a->size() == 2 && b->size() == 2)
      ctx.set_output(0, ctx.dtype(0), ir::Shape{(*a)[attrs_.trans_a ? 1 : 0], (*b)[attrs_.trans_b ? 0 : 1]});
    else
      ctx.set_output(0, ctx.dtype(0));
    return Status::ok();
  }

  // Packed B (tiles) or B as K x N (reference kernels): the constant's bytes are not read.
  bool keeps_copy_of_input(size_t i) const override {
    return i == 1 && (b_panels_.panels.defined() || packed_b_.defined());
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* a, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* b, ctx.tensor_input(1));
    const Tensor* c = nullptr;
    if (ctx.has_input(2)) {
      ASSIGN_OR_RETURN(c, ctx.tensor_input(2));
    }
    if (a->rank() != 2 || b->rank() != 2)
      return invalid_argument("Gemm needs 2-D A and B, got " + shape_to_string(a->shape()) + " and " +
                              shape_to_string(b->shape()));
    for (const Tensor* t : {b, c})
      if (t && t->dtype() != a->dtype())
        return invalid_argument(std::string("Gemm inputs must share A's type ") + dtype_name(a->dtype()) +
                                ", got " + dtype_name(t->dtype()));
    const int64_t m = a->dim(attrs_.trans_a ? 1 : 0), k = a->dim(attrs_.trans_a ? 0 : 1);
    const int64_t kb = b->dim(attrs_.trans_b ? 1 : 0), n = b->dim(attrs_.trans_b ? 0 : 1);
    if (k != kb)
      return invalid_argument("Gemm inner dimensions differ: A' is " + std::to_string(m) + "x" + std::to_string(k) +
                              ", B' is " + std::to_string(kb) + "x" + std::to_string(n));
    if (c) TRY(check_c(c->shape(), m, n));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, a->dtype(), {m, n}));
    return dispatch<kGemmTypes>(a->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      return run_typed<T>(ctx, *a, *b, c, m, n, k, *y);
    });
  }

 private:
  Status check_c(const std::vector<int64_t>& cs, int64_t m, int64_t n) const {
    const bool ok = attrs_.exact_c_shape
                        ? cs == std::vector<int64_t>{m, n}
                        : cs.size() <= 2 && (cs.size() < 1 || cs.back() == 1 || cs.back() == n) &&
                              (cs.size() < 2 || cs[0] == 1 || cs[0] == m);
    if (ok) return Status::ok();
    return invalid_argument("Gemm C of shape " + shape_to_string(cs) + " does not broadcast to the output " +
                            shape_to_string({m, n}) + (attrs_.exact_c_shape ? " (broadcast=0)" : ""));
  }

  template <class T>
  Status run_typed(RunContext& ctx, const Tensor& a, const Tensor& b, const Tensor* c, int64_t m, int64_t n,
                   int64_t k, Tensor& y) const {
    using C = nn::compute_t<T>;
    float beta = c ? attrs_.beta : 0.0f;
    if constexpr (std::is_same_v<C, float>) {
      if (mode_ != Mode::kReference) return run_tiles<T>(ctx.pool(), a, b, beta != 0.0f ? c : nullptr, m, n, k, y);
    }
    if constexpr (std::is_integral_v<T>) {
      if (attrs_.alpha != 1.0f || (beta != 0.0f && beta != 1.0f))
        return not_implemented("integer Gemm supports alpha = 1 and beta in {0, 1} only");
    }
    nn::ComputeInput<T> av(a);
    nn::ComputeOutput<T> yv(y);
    if (c && beta != 0.0f) fill_broadcast_c<T>(*c, m, n, yv.data());
    Tensor run_packed;
    const C* bp = nullptr;
    if (packed_b_.defined() && b.raw() == packed_from_) {
      bp = packed_b_.data<C>();
    } else if (attrs_.trans_b || nn::is_half_v<T>) {
      ASSIGN_OR_RETURN(run_packed, pack_b<T>(b, attrs_.trans_b));
      bp = run_packed.data<C>();
    } else {
      bp = b.data<C>();  // already K x N in the compute type
    }
    kernels::GemmProblem<C> p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.a = av.data();
    p.a_row_stride = attrs_.trans_a ? 1 : k;
    p.a_col_stride = attrs_.trans_a ? m : 1;
    p.b = bp;
    p.ldb = n;
    p.c = yv.data();
    p.ldc = n;
    p.alpha = attrs_.alpha;
    p.beta = beta;
    nn::parallel_gemm(ctx.pool(), gemm_.get<C>(), p);
    nn::apply_fused_clamp(ctx.pool(), clamp_, yv.data(), m * n);
    yv.commit();
    return Status::ok();
  }

  // float32 on the tile kernels; C enters the epilogue as a broadcast bias.
  template <class T>
  Status run_tiles(ThreadPool& pool, const Tensor& a, const Tensor& b, const Tensor* c, int64_t m, int64_t n,
                   int64_t k, Tensor& y) const {
    nn::ComputeInput<T> av(a);
    std::optional<nn::ComputeInput<T>> bv, cv;
    nn::ComputeOutput<T> yv(y);
    nn::F32Product p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.a.data = av.data();
    p.a.outer_stride = attrs_.trans_a ? 1 : k;
    p.a.k_stride = attrs_.trans_a ? m : 1;
    if (const float* panels = b_panels_.match(b)) {
      p.b.packed = panels;
    } else {
      bv.emplace(b);
      p.b.data = bv->data();
      p.b.outer_stride = attrs_.trans_b ? k : 1;
      p.b.k_stride = attrs_.trans_b ? 1 : n;
    }
    if (c) {
      cv.emplace(*c);
      const auto& cs = c->shape();
      const int64_t cn = cs.empty() ? 1 : cs.back(), cm = cs.size() < 2 ? 1 : cs[0];
      p.epilogue.bias = cv->data();
      p.epilogue.bias_cs = cn == 1 ? 0 : 1;
      p.epilogue.bias_rs = cm == 1 ? 0 : cn;
      p.epilogue.beta = attrs_.beta;
    }
    p.epilogue.alpha = attrs_.alpha;
    nn::set_epilogue_clamp(p.epilogue, clamp_);
    p.c = yv.data();
    p.ldc = n;
    TRY(nn::run_f32_gemm(pool, tile_, p));
    yv.commit();
    return Status::ok();
  }

  template <class T>
  static void fill_broadcast_c(const Tensor& c, int64_t m, int64_t n, nn::compute_t<T>* out) {
    const auto& cs = c.shape();
    const int64_t cn = cs.empty() ? 1 : cs.back();
    const int64_t cm = cs.size() < 2 ? 1 : cs[0];
    const T* src = c.data<T>();
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        out[i * n + j] = nn::to_compute(src[(cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j)]);
  }

  GemmAttrs attrs_;
  Mode mode_;
  std::optional<ir::FusedClamp> clamp_;  // a Relu/Clip fused into this node
  nn::GemmKernels gemm_;
  Tensor packed_b_;  // constant B as K x N for the reference kernels; undefined otherwise
  const void* packed_from_;  // the constant's bytes: a feed that overrides it is packed at run
  const kernels::F32GemmKernel& tile_;
  nn::PackedF32 b_panels_;  // constant float B as the tile kernel's panels
};

Result<std::unique_ptr<OpKernel>> create_gemm(const KernelInit& init) {
  const size_t min_inputs = init.opset < 11 ? 3 : 2;
  if (init.num_inputs() < min_inputs || init.num_inputs() > 3 || !init.has_input(0) || !init.has_input(1))
    return init.error("Gemm takes A, B" + std::string(min_inputs == 3 ? " and C" : " and optional C") + ", got " +
                      std::to_string(init.num_inputs()) + " inputs");
  GemmAttrs attrs;
  ASSIGN_OR_RETURN(int64_t ta, init.attr_int("transA", 0));
  ASSIGN_OR_RETURN(int64_t tb, init.attr_int("transB", 0));
  ASSIGN_OR_RETURN(attrs.alpha, init.attr_float("alpha", 1.0f));
  ASSIGN_OR_RETURN(attrs.beta, init.attr_float("beta", 1.0f));
  attrs.trans_a = ta != 0;
  attrs.trans_b = tb != 0;
  if (init.opset < 7) {
    ASSIGN_OR_RETURN(int64_t broadcast, init.attr_int("broadcast", 0));
    attrs.exact_c_shape = broadcast == 0;
  }
  Tensor packed;
  const Tensor* b = init.constant_inputs.size() > 1 ? init.constant_inputs[1] : nullptr;
  const kernels::F32GemmKernel& tile = kernels::f32_gemm_kernel(init.isa, init.mode == Mode::kDefault);
  nn::PackedF32 b_panels;
  if (b && b->rank() == 2 && init.mode != Mode::kReference) {
    ASSIGN_OR_RETURN(nn::WidenedConstant widened, nn::WidenedConstant::make(b));
    const int64_t k = b->dim(attrs.trans_b ? 1 : 0), n = b->dim(attrs.trans_b ? 0 : 1);
    ASSIGN_OR_RETURN(b_panels, nn::pack_f32_constant(*b, widened, 1, n, k, attrs.trans_b ? k : 1,
                                                     attrs.trans_b ? 1 : n, tile.nr));
  }
  if (b && b->rank() == 2 && !b_panels.panels.defined()) {
    Status st = dispatch<kGemmTypes>(b->dtype(), [&](auto* tag) -> Status {
      using T = std::remove_pointer_t<decltype(tag)>;
      if (!attrs.trans_b && !nn::is_half_v<T>) return Status::ok();  // used in place
      ASSIGN_OR_RETURN(packed, pack_b<T>(*b, attrs.trans_b));
      return Status::ok();
    });
    if (!st.is_ok()) return init.unsupported(st.message());
  }
  return make_kernel<GemmKernel>(attrs, init.mode, std::move(packed), b ? b->raw() : nullptr, tile,
                                 std::move(b_panels), init.node.fused_clamp);
}

}  // namespace

TWINRT_REGISTER_OP("Gemm", 1, create_gemm);

}  // namespace twinrt
