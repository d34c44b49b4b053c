// Activation formulas shared by their own kernels (activations.cc) and the fused
// elementwise kernel (ops/fused), so a fused chain computes the same bits. All in double:
// attributes are float32 values, widened exactly, and the result is rounded once.
#pragma once

#include "kernels/math/math.h"

namespace twinrt::activation {

// NaN stays NaN; otherwise clamped to [0, 1].
inline double clamp01(double v) { return v < 0 ? 0.0 : (v > 1 ? 1.0 : v); }

inline double relu(double x) { return x < 0 ? 0.0 : x; }
inline double hard_sigmoid(double x, double alpha, double beta) { return clamp01(alpha * x + beta); }
// x * HardSigmoid(x) with alpha = 1/6, beta = 0.5.
inline double hard_swish(double x) { return x * clamp01(x / 6 + 0.5); }
inline double sigmoid(double x) { return 1.0 / (1.0 + math::exp(-x)); }
inline double leaky_relu(double x, double alpha) { return x < 0 ? alpha * x : x; }

// Default mode's HardSigmoid and HardSwish in float arithmetic (two roundings before the
// clamp, never contracted), a double division per element fewer: MobileNetV3's HardSwish
// steps took a third of its time. kernels/elementwise/f32_steps.inc computes the same.
inline float clamp01_in_float(float v) { return v < 0 ? 0.0f : (v > 1 ? 1.0f : v); }
inline float hard_sigmoid_in_float(float x, float alpha, float beta) { return clamp01_in_float(alpha * x + beta); }
inline float hard_swish_in_float(float x) { return x * clamp01_in_float(x * (1.0f / 6) + 0.5f); }

}  // namespace twinrt::activation
