// BatchNormalization: y = (x - mean) * scale / sqrt(var + epsilon) + B per channel, with
// the statistics either given (inference) or computed from the batch (training_mode).
#include <array>
#include <cmath>

#include "kernels/elementwise/f32_steps.h"
#include "ops/nn/batch_norm.h"
#include "ops/nn/compute_type.h"
#include "ops/nn/fused_epilogue.h"
#include "ops/op.h"
#include "runtime/thread_pool.h"

namespace twinrt {
namespace nn {

BatchNormAffine::BatchNormAffine(const BatchNormStatistics& s, double epsilon) {
  for (size_t j = 0; j < s.mean.size(); ++j) {
    const double factor = s.scale[j] / std::sqrt(s.var[j] + epsilon);
    in_float.factor.push_back(static_cast<float>(factor));
    in_float.shift.push_back(static_cast<float>(s.bias[j]));
    in_float.centre.push_back(static_cast<float>(s.mean[j]));
    in_double.factor.push_back(factor);
    in_double.shift.push_back(s.bias[j]);
    in_double.centre.push_back(s.mean[j]);
  }
}

Result<BatchNormStatistics> read_batch_norm_statistics(const std::array<const Tensor*, 4>& stats, int64_t count) {
  static const char* const kNames[4] = {"scale", "B", "input_mean", "input_var"};
  BatchNormStatistics s;
  std::vector<double>* const out[4] = {&s.scale, &s.bias, &s.mean, &s.var};
  for (size_t i = 0; i < 4; ++i) {
    if (stats[i]->numel() != count)
      return invalid_argument(std::string("BatchNormalization ") + kNames[i] + " must have " + std::to_string(count) +
                              " elements, got shape " + shape_to_string(stats[i]->shape()));
    ASSIGN_OR_RETURN(*out[i], read_doubles(*stats[i], kNames[i]));
  }
  return s;
}

namespace {

// y = (x - m) * f + s, then the fused clamp, in one pass on the tier's vectors (the step
// kernels of fused elementwise groups: the same float operations, so the bits of the loop
// in normalize_planes). DenseNet's 62 pre-activation normalizations ran at 4 floats a step
// in the portable build's loop, and then as three passes over each plane.
void plane_on_tier(kernels::F32StepFn step, kernels::F32StepParams normalize, const float* x, float m, float f,
                   float s, float* y, int64_t n) {
  normalize.centre = m;
  normalize.alpha = f;
  normalize.beta = s;
  step(normalize, {x, false}, {x, false}, y, n);
}

template <class Acc, class C>
void normalize_planes(ThreadPool& pool, kernels::F32StepFn step, const ChannelAffine<Acc>& affine,
                      const BatchNormShape& shape, const C* x, C* y, int64_t batch, int64_t channels, int64_t inner) {
  const kernels::F32StepParams normalize = batch_norm_step(shape);
  const std::vector<Acc>& factor = affine.factor;
  const std::vector<Acc>& shift = affine.shift;
  const std::vector<Acc>& centre = affine.centre;
  pool.parallel_for(batch * channels, 1, [&](int64_t begin, int64_t end) {
    for (int64_t plane = begin; plane < end; ++plane) {
      const int64_t c = plane % channels;
      const C* xp = x + plane * inner;
      C* yp = y + plane * inner;
      if constexpr (std::is_same_v<Acc, float> && std::is_same_v<C, float>) {
        if (shape.spatial) {
          const size_t j = static_cast<size_t>(c);
          plane_on_tier(step, normalize, xp, centre[j], factor[j], shift[j], yp, inner);
          continue;
        }
      }
      if (shape.spatial) {  // one channel's values in locals: the loop vectorizes
        const Acc m = centre[static_cast<size_t>(c)], f = factor[static_cast<size_t>(c)];
        const Acc s = shift[static_cast<size_t>(c)];
        for (int64_t i = 0; i < inner; ++i) yp[i] = static_cast<C>((static_cast<Acc>(xp[i]) - m) * f + s);
      } else {
        for (int64_t i = 0; i < inner; ++i) {
          const size_t j = static_cast<size_t>(c * inner + i);
          yp[i] = static_cast<C>((static_cast<Acc>(xp[i]) - centre[j]) * factor[j] + shift[j]);
        }
      }
      if (shape.clamp) clamp_values(*shape.clamp, yp, inner);  // while the plane is in cache
    }
  });
}

}  // namespace

kernels::F32StepParams batch_norm_step(const BatchNormShape& shape) {
  kernels::F32StepParams normalize{kernels::F32StepKind::kNormalize};
  if (shape.clamp) {
    normalize.clip = true;
    normalize.lo = shape.clamp->min ? *shape.clamp->min : no_lower_bound<float>();
    normalize.hi = shape.clamp->max ? *shape.clamp->max : no_upper_bound<float>();
  }
  return normalize;
}

Status batch_normalize(ThreadPool& pool, Mode mode, kernels::F32StepFn step, const BatchNormAffine& affine,
                       const BatchNormShape& shape, const Tensor& x, Tensor& y) {
  const int64_t batch = x.dim(0), channels = x.dim(1);
  const int64_t inner = x.numel() / std::max<int64_t>(batch * channels, 1);
  return dispatch<kFloats>(x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    ComputeInput<T> xv(x);
    ComputeOutput<T> yv(y);
    const auto in = [&](auto* acc_tag) {
      using Acc = std::remove_pointer_t<decltype(acc_tag)>;
      normalize_planes(pool, step, affine.get<Acc>(), shape, xv.data(), yv.data(), batch, channels, inner);
    };
    if (mode == Mode::kReference) in(static_cast<double*>(nullptr));
    else in(static_cast<compute_t<T>*>(nullptr));
    yv.commit();
    return Status::ok();
  });
}

}  // namespace nn

namespace {

struct BatchNormAttrs {
  double epsilon = 1e-5;
  double momentum = 0.9;
  bool training = false;
  nn::BatchNormShape shape;
};

// The affine map of constant statistics, computed when the kernel is created: reading and
// converting four tensors and a square root per channel on every run took longer than the
// normalization itself on DenseNet's 7 x 7 planes, and ran on one thread. (Initializers a
// feed may replace are never constant inputs: runtime/compile.cc.)
class BatchNormKernel final : public OpKernel {
 public:
  BatchNormKernel(BatchNormAttrs attrs, Mode mode, Isa isa, std::optional<nn::BatchNormAffine> prepared)
      : attrs_(std::move(attrs)), mode_(mode), step_(kernels::f32_step_kernel(isa)), prepared_(std::move(prepared)) {}

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
    const int64_t count = attrs_.shape.spatial ? channels : channels * inner;
    ASSIGN_OR_RETURN(Tensor * y, ctx.output_for_overwrite(0, x->dtype(), x->shape()));
    if (prepared_ && prepared_->size() == static_cast<size_t>(count)) {
      return nn::batch_normalize(ctx.pool(), mode_, step_, *prepared_, attrs_.shape, *x, *y);
    }
    std::array<const Tensor*, 4> inputs{};
    for (size_t i = 0; i < 4; ++i) {
      ASSIGN_OR_RETURN(inputs[i], ctx.tensor_input(i + 1));
    }
    ASSIGN_OR_RETURN(nn::BatchNormStatistics stats, nn::read_batch_norm_statistics(inputs, count));
    if (attrs_.training) {
      const nn::BatchNormStatistics running = stats;
      TRY(dispatch<kFloats>(x->dtype(), [&](auto* tag) -> Status {
        using T = std::remove_pointer_t<decltype(tag)>;
        nn::ComputeInput<T> xv(*x);
        if (mode_ == Mode::kReference) batch_moments<double>(ctx.pool(), xv.data(), batch, channels, inner, stats);
        else batch_moments<nn::compute_t<T>>(ctx.pool(), xv.data(), batch, channels, inner, stats);
        return Status::ok();
      }));
      TRY(write_running_stats(ctx, stats, running));
    }
    return nn::batch_normalize(ctx.pool(), mode_, step_, nn::BatchNormAffine(stats, attrs_.epsilon), attrs_.shape, *x,
                               *y);
  }

 private:
  // Per-channel mean and (population) variance over the batch and spatial positions, into
  // stats.mean and stats.var.
  template <class Acc, class C>
  void batch_moments(ThreadPool& pool, const C* x, int64_t batch, int64_t channels, int64_t inner,
                     nn::BatchNormStatistics& stats) const {
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
        stats.mean[static_cast<size_t>(c)] = static_cast<double>(m);
        stats.var[static_cast<size_t>(c)] = static_cast<double>(sq / static_cast<Acc>(count));
      }
    });
  }

  Status write_running_stats(RunContext& ctx, const nn::BatchNormStatistics& batch,
                             const nn::BatchNormStatistics& running) const {
    const std::vector<double>* batch_stats[] = {&batch.mean, &batch.var};
    const std::vector<double>* running_stats[] = {&running.mean, &running.var};
    for (size_t k = 0; k < 2; ++k) {
      if (ctx.num_outputs() <= k + 1 || !ctx.output_requested(k + 1)) continue;
      const Tensor& like = ctx.input(3 + k);
      ASSIGN_OR_RETURN(Tensor * out, ctx.output(k + 1, like.dtype(), like.shape()));
      std::vector<double> v(running_stats[k]->size());
      for (size_t i = 0; i < v.size(); ++i)
        v[i] = (*running_stats[k])[i] * attrs_.momentum + (*batch_stats[k])[i] * (1.0 - attrs_.momentum);
      nn::write_doubles(v, *out);
    }
    return Status::ok();
  }

  BatchNormAttrs attrs_;
  Mode mode_;
  kernels::F32StepFn step_;
  std::optional<nn::BatchNormAffine> prepared_;  // when the four statistics are constants
};

// The affine map of inference with constant statistics, or nothing (then run() reads them).
std::optional<nn::BatchNormAffine> prepare_affine(const KernelInit& init, const BatchNormAttrs& attrs) {
  if (attrs.training || init.constant_inputs.size() < 5) return std::nullopt;
  std::array<const Tensor*, 4> inputs{};
  for (size_t i = 0; i < 4; ++i) {
    inputs[i] = init.constant_inputs[i + 1];
    if (!inputs[i]) return std::nullopt;
  }
  Result<nn::BatchNormStatistics> stats = nn::read_batch_norm_statistics(inputs, inputs[0]->numel());
  if (!stats.is_ok()) return std::nullopt;  // run() reports it
  return nn::BatchNormAffine(*stats, attrs.epsilon);
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
  a.shape.clamp = init.node.fused_clamp;
  if (init.opset < 9) {
    ASSIGN_OR_RETURN(int64_t spatial, init.attr_int("spatial", 1));
    a.shape.spatial = spatial != 0;
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
