// LayerNormalization (opset 17): every row of the trailing axes [axis, rank) is
// normalized by its mean and variance, then scaled and shifted elementwise.
#include <cmath>
#include <type_traits>

#include "ops/common/broadcast.h"
#include "ops/nn/compute_type.h"
#include "ops/nn/row_moments.h"
#include "ops/op.h"
#include "runtime/thread_pool.h"

namespace twinrt {
namespace {

class LayerNormKernel final : public OpKernel {
 public:
  LayerNormKernel(int64_t axis, double epsilon, Mode mode, Isa isa)
      : axis_(axis), epsilon_(epsilon), mode_(mode), rows_(kernels::f32_row_kernels(isa)) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* x = ctx.shape(0);
    ctx.set_output(0, ctx.dtype(0), x ? std::optional<ir::Shape>(*x) : std::nullopt);
    std::optional<ir::Shape> stats;
    if (x) {
      const int64_t a = axis_ < 0 ? axis_ + static_cast<int64_t>(x->size()) : axis_;
      if (a >= 0 && a < static_cast<int64_t>(x->size())) {
        stats = *x;
        for (size_t d = static_cast<size_t>(a); d < stats->size(); ++d) (*stats)[d] = ir::Dim::of(1);
      }
    }
    for (size_t i = 1; i < ctx.output_types.size(); ++i) ctx.set_output(i, DataType::kFloat, stats);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    const int64_t rank = x->rank();
    const int64_t a = axis_ < 0 ? axis_ + rank : axis_;
    if (a < 0 || a >= rank)
      return invalid_argument("LayerNormalization axis " + std::to_string(axis_) + " is outside rank " + std::to_string(rank));
    const std::vector<int64_t> norm_shape(x->shape().begin() + a, x->shape().end());
    const int64_t inner = shape_numel(norm_shape), outer = inner > 0 ? x->numel() / inner : 0;
    ASSIGN_OR_RETURN(std::vector<double> scale, expanded(ctx, 1, norm_shape, 1.0));
    ASSIGN_OR_RETURN(std::vector<double> bias, expanded(ctx, 2, norm_shape, 0.0));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, x->dtype(), x->shape()));
    std::vector<int64_t> stats_shape = x->shape();
    for (int64_t d = a; d < rank; ++d) stats_shape[static_cast<size_t>(d)] = 1;
    Tensor* stats[2] = {nullptr, nullptr};
    for (size_t k = 0; k < 2; ++k)
      if (ctx.num_outputs() > k + 1 && ctx.output_requested(k + 1)) {
        ASSIGN_OR_RETURN(stats[k], ctx.output(k + 1, DataType::kFloat, stats_shape));
      }
    return dispatch<kFloats>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      nn::ComputeInput<T> xv(*x);
      nn::ComputeOutput<T> yv(*y);
      if (mode_ == Mode::kReference) normalize<double>(ctx.pool(), xv.data(), yv.data(), outer, inner, scale, bias, stats);
      else normalize<nn::compute_t<T>>(ctx.pool(), xv.data(), yv.data(), outer, inner, scale, bias, stats);
      yv.commit();
      return Status::ok();
    });
  }

 private:
  // Input i (Scale or B) broadcast to the normalized shape; `fill` when B is absent.
  Result<std::vector<double>> expanded(RunContext& ctx, size_t i, const std::vector<int64_t>& norm_shape,
                                       double fill) const {
    const int64_t n = shape_numel(norm_shape);
    if (!ctx.has_input(i)) return std::vector<double>(static_cast<size_t>(n), fill);
    ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(i));
    const char* name = i == 1 ? "Scale" : "B";
    ASSIGN_OR_RETURN(std::vector<double> v, nn::read_doubles(*t, name));
    auto joint = broadcast_shapes({t->shape(), norm_shape});
    if (!joint || joint.value() != norm_shape)
      return invalid_argument(std::string("LayerNormalization ") + name + " of shape " + shape_to_string(t->shape()) +
                              " does not broadcast to the normalized shape " + shape_to_string(norm_shape));
    std::vector<double> out(static_cast<size_t>(n));
    BroadcastIterator(norm_shape, {t->shape()}).for_each([&](int64_t o, const int64_t* off) {
      out[static_cast<size_t>(o)] = v[static_cast<size_t>(off[0])];
    });
    return out;
  }

  template <class Acc, class C>
  void normalize(ThreadPool& pool, const C* x, C* y, int64_t outer, int64_t inner, const std::vector<double>& scale,
                 const std::vector<double>& bias, Tensor* const* stats) const {
    std::vector<Acc> s(scale.begin(), scale.end()), b(bias.begin(), bias.end());
    pool.parallel_for(outer, 1, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const C* xr = x + r * inner;
        C* yr = y + r * inner;
        Acc mean, var;
        nn::row_moments<Acc>(xr, inner, mean, var, rows_);
        const Acc inv_std = Acc(1) / static_cast<Acc>(std::sqrt(var + static_cast<Acc>(epsilon_)));
        if constexpr (std::is_same_v<Acc, float> && std::is_same_v<C, float>) {
          rows_.normalize(xr, mean, inv_std, s.data(), b.data(), yr, inner);
        } else {
          for (int64_t i = 0; i < inner; ++i)
            yr[i] = static_cast<C>((static_cast<Acc>(xr[i]) - mean) * inv_std * s[static_cast<size_t>(i)] +
                                   b[static_cast<size_t>(i)]);
        }
        if (stats[0]) stats[0]->data<float>()[r] = static_cast<float>(mean);
        if (stats[1]) stats[1]->data<float>()[r] = static_cast<float>(inv_std);
      }
    });
  }

  int64_t axis_;
  double epsilon_;
  Mode mode_;
  const kernels::F32RowKernels& rows_;
};

Result<std::unique_ptr<OpKernel>> create_layer_norm(const KernelInit& init) {
  if (init.num_inputs() < 2 || init.num_inputs() > 3 || !init.has_input(0) || !init.has_input(1))
    return init.error("LayerNormalization takes X, Scale and optional B; got " + std::to_string(init.num_inputs()) + " inputs");
  if (init.num_outputs() > 3) return init.error("LayerNormalization has at most 3 outputs");
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", -1));
  ASSIGN_OR_RETURN(float epsilon, init.attr_float("epsilon", 1e-5f));
  ASSIGN_OR_RETURN(int64_t stash, init.attr_int("stash_type", 1));
  if (stash != static_cast<int64_t>(DataType::kFloat))
    return init.unsupported("stash_type " + std::to_string(stash) + " (only 1 = float is supported)");
  return make_kernel<LayerNormKernel>(axis, epsilon, init.mode, init.isa);
}

}  // namespace

TWINRT_REGISTER_OP("LayerNormalization", 17, create_layer_norm);

}  // namespace twinrt
