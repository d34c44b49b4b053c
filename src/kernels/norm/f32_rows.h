// Reductions and maps over one contiguous float32 row, for Softmax, LayerNormalization and
// InstanceNormalization in `default` and `exact` mode, per ISA tier.
//
// Numerics: a row sum is 32 partial sums, element i going into partial i mod 32 in index
// order, each started from +0; then the partials are added as a fixed tree (16 + 16, 8 + 8,
// 4 + 4, 2 + 2, 1 + 1, each pair lane by lane). Every tier computes these same float
// operations (the partials are 4 vectors of 8 lanes on every tier, split into narrower
// registers where the tier has them), so every tier, WebAssembly and any thread count gives
// the same bits, and the independent partials let the adds overlap instead of waiting on
// one chain.
#pragma once

#include <cstdint>

#include "twinrt/session.h"

namespace twinrt::kernels {

struct F32RowKernels {
  // The sum of x[0, n) in the order above (+0 for n = 0).
  float (*sum)(const float* x, int64_t n);
  // The sum of (x[i] - mean)^2, each square rounded, in the order above.
  float (*sum_squared_deviations)(const float* x, int64_t n, float mean);
  // The largest of x[0, n): NaN when any element is NaN, -inf for n = 0.
  float (*max)(const float* x, int64_t n);
  // y[i] = x[i] - c.
  void (*subtract)(const float* x, float c, float* y, int64_t n);
  // y[i] = x[i] / d.
  void (*divide)(const float* x, float d, float* y, int64_t n);
  // y[i] = (x[i] - mean) * factor * scale[i] + bias[i], rounding after each operation.
  void (*normalize)(const float* x, float mean, float factor, const float* scale, const float* bias, float* y,
                    int64_t n);
};

// The kernels of `isa` (never kAuto). Every tier gives the same bits.
const F32RowKernels& f32_row_kernels(Isa isa);

}  // namespace twinrt::kernels
