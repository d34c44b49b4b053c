// BatchNormalization's normalization as a function, for its own kernel and for a Conv that
// took in the normalization before it (passes/fuse_normalized_input.cc), which runs it
// through here wherever the tiles cannot apply it while they pack their input.
#pragma once

#include <array>
#include <optional>
#include <type_traits>
#include <vector>

#include "ir/ir.h"
#include "kernels/elementwise/f32_steps.h"
#include "runtime/thread_pool.h"
#include "twinrt/session.h"
#include "twinrt/tensor.h"

namespace twinrt::nn {

// y = (x - centre) * factor + shift per statistic, in the compute type Acc.
template <class Acc>
struct ChannelAffine {
  std::vector<Acc> centre, factor, shift;
};

// The four statistics (scale, B, mean, var) as doubles, each one entry per statistic.
struct BatchNormStatistics {
  std::vector<double> scale, bias, mean, var;
};

// The affine map of every compute type: float (float32 and float16 outside reference mode)
// and double (reference mode, float64).
struct BatchNormAffine {
  ChannelAffine<float> in_float;
  ChannelAffine<double> in_double;

  BatchNormAffine(const BatchNormStatistics& s, double epsilon);
  template <class Acc>
  const ChannelAffine<Acc>& get() const {
    if constexpr (std::is_same_v<Acc, float>) return in_float;
    else return in_double;
  }
  size_t size() const { return in_float.centre.size(); }
};

// scale, B, input_mean and input_var (any float type) as doubles, each of `count` elements;
// an error names the input of another size.
Result<BatchNormStatistics> read_batch_norm_statistics(const std::array<const Tensor*, 4>& stats, int64_t count);

// What the normalization does besides the affine map.
struct BatchNormShape {
  bool spatial = true;  // false (opset < 9): one statistic per channel *and* position
  std::optional<ir::FusedClamp> clamp;  // a Relu / Clip after it (passes/fuse_clamp_activation.cc)
};

// The step kernel's kNormalize parameters for `shape`'s clamp (each channel adds its centre,
// factor and shift).
kernels::F32StepParams batch_norm_step(const BatchNormShape& shape);

// y = clamp(affine(x)) for x [N, C, ...] (any float type; y the same shape and type), in
// double in reference mode and else in the compute type of x. Float32 planes run on the
// step kernel `step` (exact in every mode), so a float32 element gets
// ((x - centre) * factor + shift) then the clamp, each operation rounded to float.
// Fails only for a type other than float16, bfloat16, float and double.
Status batch_normalize(ThreadPool& pool, Mode mode, kernels::F32StepFn step, const BatchNormAffine& affine,
                       const BatchNormShape& shape, const Tensor& x, Tensor& y);

}  // namespace twinrt::nn
