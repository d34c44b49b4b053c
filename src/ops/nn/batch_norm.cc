// BatchNormalization: y = (x - mean) * scale / sqrt(var + epsilon) + B per channel, with
// the statistics either given (inference) or computed from the batch (training_mode).
#include <array>
#include <cmath>

#include "kernels/elementwise/f32_steps.h"
#include "ops/nn/compute_type.h"
#include "ops/nn/fused_epilogue.h"
#include "ops/op.h"
#include "runtime/thread_pool.h"

namespace twinrt {
namespace {

struct BatchNormAttrs {
  double epsilon = 1e-5;
  double momentum = 0.9;
  bool training = false;
  bool spatial = true;  // false (opset < 9): one statistic per channel *and* position
  std::optional<ir::FusedClamp> clamp;  // a Relu / Clip after it (passes/fuse_clamp_activation.cc)
};

constexpr size_t kParams = 5;  // X, then the four statistics inputs
const char* const kParamNames[kParams] = {"X", "scale", "B", "input_mean", "input_var"};

// Inputs 1-4 (the statistics) as doubles into params[1..4], each of `stats` elements.
Status read_statistics(const std::array<const Tensor*, kParams>& inputs, int64_t stats,
                       std::vector<double> (&params)[kParams]) {
  for (size_t i = 1; i < kParams; ++i) {
    if (inputs[i]->numel() != stats)
      return invalid_argument(std::string("BatchNormalization ") + kParamNames[i] + " must have " +
                              std::to_string(stats) + " elements, got shape " + shape_to_string(inputs[i]->shape()));
    ASSIGN_OR_RETURN(params[i], nn::read_doubles(*inputs[i], kParamNames[i]));
  }
  return Status::ok();
}

// y = (x - centre) * factor + shift per statistic, in the compute type Acc.
template <class Acc>
struct ChannelAffine {
  std::vector<Acc> centre, factor, shift;

  ChannelAffine(const std::vector<double>* params, const std::vector<double>& mean, const std::vector<double>& var,
                double epsilon) {
    for (size_t j = 0; j < mean.size(); ++j) {
      factor.push_back(static_cast<Acc>(params[1][j] / std::sqrt(var[j] + epsilon)));
      shift.push_back(static_cast<Acc>(params[2][j]));
      centre.push_back(static_cast<Acc>(mean[j]));
    }
  }
};

// The affine maps of constant statistics, computed when the kernel is created: reading and
// converting four tensors and a square root per channel on every run took longer than the
// normalization itself on DenseNet's 7 x 7 planes, and ran on one thread. (Initializers a
// feed may replace are never constant inputs: runtime/compile.cc.)
struct PreparedAffine {
  ChannelAffine<float> in_float;
  ChannelAffine<double> in_double;

  template <class Acc>
  const ChannelAffine<Acc>& get() const {
    if constexpr (std::is_same_v<Acc, float>) return in_float;
    else return in_double;
  }
};

class BatchNormKernel final : public OpKernel {
 public:
  BatchNormKernel(BatchNormAttrs attrs, Mode mode, Isa isa, std::optional<PreparedAffine> prepared)
      : attrs_(attrs), mode_(mode), step_(kernels::f32_step_kernel(isa)), prepared_(std::move(prepared)) {
    if (!attrs_.clamp) return;
    normalize_.clip = true;
    normalize_.lo = attrs_.clamp->min ? static_cast<float>(*attrs_.clamp->min) : no_lower_bound<float>();
    normalize_.hi = attrs_.clamp->max ? static_cast<float>(*attrs_.clamp->max) : no_upper_bound<float>();
  }

  Status infer(InferContext& ctx) const override {
    ctx.same_as_input(0, 0);
    for (size_t i = 1; i < ctx.output_types.size(); ++i)
      ctx.set_output(i, ctx.dtype(3), ctx.shape(3) ? std::optional<ir::Shape>(*ctx.shape(3)) : std::nullopt);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    if (x->rank() < 2) return invalid_argument("BatchNormalization needs X of rank >= 2, got " + shape_to_string(x->shape()));
    const int64_t batch = x->dim(0), channels = x->dim(1);
    const int64_t inner = x->numel() / std::max<int64_t>(batch * channels, 1);
    const int64_t stats = attrs_.spatial ? channels : channels * inner;
    const bool prepared = prepared_ && prepared_->in_float.centre.size() == static_cast<size_t>(stats);
    std::vector<double> params[kParams];
    if (!prepared) {
      std::array<const Tensor*, kParams> inputs{};
      for (size_t i = 1; i < kParams; ++i) {
        ASSIGN_OR_RETURN(inputs[i], ctx.tensor_input(i));
      }
      TRY(read_statistics(inputs, stats, params));
    }
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, x->dtype(), x->shape()));
    return dispatch<kFloats>(x->dtype(), [&](auto* tag) -> Status {
      using T = std::remove_pointer_t<decltype(tag)>;
      nn::ComputeInput<T> xv(*x);
      nn::ComputeOutput<T> yv(*y);
      const auto normalize_in = [&](auto* acc_tag) -> Status {
        using Acc = std::remove_pointer_t<decltype(acc_tag)>;
        if (prepared) {
          normalize(ctx.pool(), xv.data(), yv.data(), batch, channels, inner, prepared_->get<Acc>());
          return Status::ok();
        }
        std::vector<double> mean = params[3], var = params[4];
        if (attrs_.training) {
          batch_moments<Acc>(ctx.pool(), xv.data(), batch, channels, inner, mean, var);
          TRY(write_running_stats(ctx, mean, var, params[3], params[4]));
        }
        normalize(ctx.pool(), xv.data(), yv.data(), batch, channels, inner,
                  ChannelAffine<Acc>(params, mean, var, attrs_.epsilon));
        return Status::ok();
      };
      TRY(mode_ == Mode::kReference ? normalize_in(static_cast<double*>(nullptr))
                                    : normalize_in(static_cast<nn::compute_t<T>*>(nullptr)));
      yv.commit();
      return Status::ok();
    });
  }

 private:
  // Per-channel mean and (population) variance over the batch and spatial positions.
  template <class Acc, class C>
  void batch_moments(ThreadPool& pool, const C* x, int64_t batch, int64_t channels, int64_t inner,
                     std::vector<double>& mean, std::vector<double>& var) const {
    const double count = static_cast<double>(batch * inner);
    pool.parallel_for(channels, 1, [&](int64_t begin, int64_t end) {
      for (int64_t c = begin; c < end; ++c) {
        Acc sum = 0;
        for (int64_t n = 0; n < batch; ++n)
          for (int64_t i = 0; i < inner; ++i) sum += static_cast<Acc>(x[(n * channels + c) * inner + i]);
        const Acc m = sum / static_cast<Acc>(count);
        Acc sq = 0;
        for (int64_t n = 0; n < batch; ++n)
          for (int64_t i = 0; i < inner; ++i) {
            const Acc d = static_cast<Acc>(x[(n * channels + c) * inner + i]) - m;
            sq += d * d;
          }
        mean[static_cast<size_t>(c)] = static_cast<double>(m);
        var[static_cast<size_t>(c)] = static_cast<double>(sq / static_cast<Acc>(count));
      }
    });
  }

  Status write_running_stats(RunContext& ctx, const std::vector<double>& batch_mean, const std::vector<double>& batch_var,
                             const std::vector<double>& running_mean, const std::vector<double>& running_var) const {
    const std::vector<double>* batch_stats[] = {&batch_mean, &batch_var};
    const std::vector<double>* running[] = {&running_mean, &running_var};
    for (size_t k = 0; k < 2; ++k) {
      if (ctx.num_outputs() <= k + 1 || !ctx.output_requested(k + 1)) continue;
      const Tensor& like = ctx.input(3 + k);
      ASSIGN_OR_RETURN(Tensor * out, ctx.output(k + 1, like.dtype(), like.shape()));
      std::vector<double> v(running[k]->size());
      for (size_t i = 0; i < v.size(); ++i)
        v[i] = (*running[k])[i] * attrs_.momentum + (*batch_stats[k])[i] * (1.0 - attrs_.momentum);
      nn::write_doubles(v, *out);
    }
    return Status::ok();
  }

  template <class Acc, class C>
  void normalize(ThreadPool& pool, const C* x, C* y, int64_t batch, int64_t channels, int64_t inner,
                 const ChannelAffine<Acc>& affine) const {
    const std::vector<Acc>& factor = affine.factor;
    const std::vector<Acc>& shift = affine.shift;
    const std::vector<Acc>& centre = affine.centre;
    pool.parallel_for(batch * channels, 1, [&](int64_t begin, int64_t end) {
      for (int64_t plane = begin; plane < end; ++plane) {
        const int64_t c = plane % channels;
        const C* xp = x + plane * inner;
        C* yp = y + plane * inner;
        if constexpr (std::is_same_v<Acc, float> && std::is_same_v<C, float>) {
          if (attrs_.spatial) {
            plane_on_tier(xp, centre[static_cast<size_t>(c)], factor[static_cast<size_t>(c)],
                          shift[static_cast<size_t>(c)], yp, inner);
            continue;
          }
        }
        if (attrs_.spatial) {  // one channel's values in locals: the loop vectorizes
          const Acc m = centre[static_cast<size_t>(c)], f = factor[static_cast<size_t>(c)];
          const Acc s = shift[static_cast<size_t>(c)];
          for (int64_t i = 0; i < inner; ++i) yp[i] = static_cast<C>((static_cast<Acc>(xp[i]) - m) * f + s);
        } else {
          for (int64_t i = 0; i < inner; ++i) {
            const size_t j = static_cast<size_t>(c * inner + i);
            yp[i] = static_cast<C>((static_cast<Acc>(xp[i]) - centre[j]) * factor[j] + shift[j]);
          }
        }
        if (attrs_.clamp) nn::clamp_values(*attrs_.clamp, yp, inner);  // while the plane is in cache
      }
    });
  }

  // y = (x - m) * f + s, then the fused clamp, in one pass on the tier's vectors (the step
  // kernels of fused elementwise groups: the same float operations, so the bits of the loop
  // above). DenseNet's 62 pre-activation normalizations ran at 4 floats a step in the
  // portable build's loop, and then as three passes over each plane.
  void plane_on_tier(const float* x, float m, float f, float s, float* y, int64_t n) const {
    kernels::F32StepParams normalize = normalize_;
    normalize.centre = m;
    normalize.alpha = f;
    normalize.beta = s;
    step_(normalize, {x, false}, {x, false}, y, n);
  }

  BatchNormAttrs attrs_;
  Mode mode_;
  kernels::F32StepFn step_;
  // The step's kind and the fused clamp's bounds (set once); each channel adds its m, f, s.
  kernels::F32StepParams normalize_{kernels::F32StepKind::kNormalize};
  std::optional<PreparedAffine> prepared_;  // when the four statistics are constants
};

// The affine maps of inference with constant statistics, or nothing (then run() reads them).
std::optional<PreparedAffine> prepare_affine(const KernelInit& init, const BatchNormAttrs& attrs) {
  if (attrs.training || init.constant_inputs.size() < kParams) return std::nullopt;
  std::array<const Tensor*, kParams> inputs{};
  for (size_t i = 1; i < kParams; ++i) {
    inputs[i] = init.constant_inputs[i];
    if (!inputs[i]) return std::nullopt;
  }
  std::vector<double> params[kParams];
  if (!read_statistics(inputs, inputs[1]->numel(), params)) return std::nullopt;  // run() reports it
  return PreparedAffine{ChannelAffine<float>(params, params[3], params[4], attrs.epsilon),
                        ChannelAffine<double>(params, params[3], params[4], attrs.epsilon)};
}

Result<std::unique_ptr<OpKernel>> create_batch_norm(const KernelInit& init) {
  if (init.num_inputs() != 5)
    return init.error("BatchNormalization takes X, scale, B, input_mean, input_var; got " +
                      std::to_string(init.num_inputs()) + " inputs");
  for (size_t i = 0; i < 5; ++i)
    if (!init.has_input(i)) return init.error("BatchNormalization input " + std::to_string(i) + " is missing");
  BatchNormAttrs a;
  ASSIGN_OR_RETURN(float epsilon, init.attr_float("epsilon", 1e-5f));
  ASSIGN_OR_RETURN(float momentum, init.attr_float("momentum", 0.9f));
  a.epsilon = epsilon;
  a.momentum = momentum;
  a.clamp = init.node.fused_clamp;
  if (init.opset < 9) {
    ASSIGN_OR_RETURN(int64_t spatial, init.attr_int("spatial", 1));
    a.spatial = spatial != 0;
  }
  if (init.opset >= 14) {
    ASSIGN_OR_RETURN(int64_t training, init.attr_int("training_mode", 0));
    a.training = training != 0;
    if (!a.training && init.num_outputs() > 1)
      return init.error("outputs running_mean and running_var exist only with training_mode = 1");
  } else if (init.num_outputs() > 1) {
    return init.unsupported("the training outputs of BatchNormalization before opset 14");
  }
  return make_kernel<BatchNormKernel>(a, init.mode, init.isa, prepare_affine(init, a));
}

}  // namespace

TWINRT_REGISTER_OP("BatchNormalization", 1, create_batch_norm);

}  // namespace twinrt
