// The float32 elementwise steps of a fused group (ops/fused/elementwise_program.h) over
// arrays. The IEEE ones (arithmetic, comparisons, and the double formulas of
// ops/unary/activation_math.h, rounded once) have vector kernels per tier that give the
// scalar formulas' bits; the transcendental ones stay with the math library's functions.
#pragma once

#include <cstdint>

#include "twinrt/session.h"

namespace twinrt::kernels {

enum class F32StepKind {
  // Vectorized per tier (f32_step_kernel):
  kAdd, kSub, kMul, kDiv, kClip, kRelu, kHardSigmoid, kHardSwish, kLeakyRelu,
  kHardSigmoidInFloat, kHardSwishInFloat,  // default mode's float formulas (activation_math.h)
  // Runs of the steps above with constant operands, in one pass (the same float operations
  // in the same order, so the same bits as the steps one by one):
  kMulAdd,          // a * alpha + beta (two roundings)
  kHardSwishSteps,  // (Clip(a + alpha, lo, hi) * a) / beta: HardSwish as exporters write it
  kNormalize,       // (a - centre) * alpha + beta, then Clip(lo, hi) when `clip`: a
                    // BatchNormalization plane and its fused clamp (three roundings, then the clip)
  // Math library:
  kSigmoid, kTanh, kSqrt, kExp, kErf,
  kSilu,  // a run of Sigmoid(a) and its product with a, in one pass (fast modes; the same bits)
};

inline bool f32_step_is_binary(F32StepKind k) { return k <= F32StepKind::kDiv; }
inline bool f32_step_is_vectorized(F32StepKind k) { return k <= F32StepKind::kNormalize; }

struct F32StepParams {
  F32StepKind kind;
  float lo = 0, hi = 0;  // Clip, kHardSwishSteps, kNormalize
  // HardSigmoid, LeakyRelu: float32 attributes, widened exactly. kMulAdd, kNormalize: the
  // factor and the addend; kHardSwishSteps: the addend and the divisor (float32 values,
  // widened exactly).
  double alpha = 0, beta = 0;
  float centre = 0;   // kNormalize
  bool clip = false;  // kNormalize
};

// n elements, or one element that stands for all of them (a broadcast operand).
struct F32StepOperand {
  const float* p;
  bool scalar;
};

// d[i] = step(a[i]) or step(a[i], b[i]) for i < n, where at most one of a and b is scalar
// unless n == 1; d may be a or b. Only for kinds with f32_step_is_vectorized.
using F32StepFn = void (*)(const F32StepParams& step, F32StepOperand a, F32StepOperand b, float* d, int64_t n);

// The kernel of `isa` (never kAuto). Every tier gives the same bits.
F32StepFn f32_step_kernel(Isa isa);

// A per-row map of a pointwise Conv's input (ops/nn/channel_map.h): row r's elements times
// factor[r] (kMul's operation), or with `centre` (x - centre[r]) * factor[r] + shift[r] and
// then the clip (kNormalize's), each rounded to float.
struct F32RowMap {
  const float* factor = nullptr;
  const float* centre = nullptr;  // null: the product only
  const float* shift = nullptr;
  bool clip = false;
  float lo = 0, hi = 0;
};
// One B panel of `nr` columns from `rows` rows `src_stride` floats apart: d[r * nr + i] =
// map_r(src[r * src_stride + i]) for i < width (<= nr), zeros after. The kMul and kNormalize
// steps' bits on every tier.
using F32MapPanelFn = void (*)(const F32RowMap& map, const float* src, int64_t src_stride, int64_t rows,
                               int64_t width, int nr, float* d);
F32MapPanelFn f32_map_panel_kernel(Isa isa);

}  // namespace twinrt::kernels
