// Float elementary functions for the fast modes (default, exact): computed in plain double
// arithmetic with short polynomials and no double-double steps, then rounded once to float.
// The double result is far more accurate than a float ulp, so the float is the correctly
// rounded one except when the true value lies very close to a rounding boundary
// (tests/unit/math_fast_float_test.cc reports the largest error and how often the result is
// not the correctly rounded float: 0 of 2 million samples each, bound: 1 ulp). Like math.h, one fixed sequence of IEEE operations, so the
// same bits on every target. Reference mode keeps math.h's functions.
#pragma once

#include <cstdint>

#include "twinrt/session.h"

namespace twinrt::math {

float exp_f32(float x);
float erf_f32(float x);
// Default mode's erf (erf_float.h): float arithmetic, at most 3 ulp, the same bits on
// every target; erf_f32 stays exact mode's.
float erf_in_float(float x);
// Default mode's exp (exp_float.h): float arithmetic, the same bits on every target;
// exp_f32 stays exact mode's.
float exp_in_float(float x);
// 1 / (1 + e^-x), with e^-x as in exp_f32 but not rounded to float: exact mode's Sigmoid.
float sigmoid_f32(float x);
// Default mode's sigmoid (exp_float.h): float arithmetic, the same bits on every target.
float sigmoid_in_float(float x);
// y[i] = f(x[i]) for i < n, bit for bit with the scalar function f above, several elements at
// a time (x and y may be the same array), with the vectors of tier `isa` (never kAuto).
using F32ArrayFn = void (*)(const float* x, float* y, int64_t n);
F32ArrayFn exp_f32_n_kernel(Isa isa);
F32ArrayFn erf_f32_n_kernel(Isa isa);
F32ArrayFn sigmoid_f32_n_kernel(Isa isa);
F32ArrayFn erf_in_float_n_kernel(Isa isa);
F32ArrayFn exp_in_float_n_kernel(Isa isa);
F32ArrayFn sigmoid_in_float_n_kernel(Isa isa);
// y[i] = x[i] * sigmoid(x[i]) (SiLU), the sigmoid rounded to float first: a Sigmoid and a Mul
// in one pass, with their bits; silu_f32 with sigmoid_f32 (exact mode), silu_in_float with
// sigmoid_in_float (default).
F32ArrayFn silu_f32_n_kernel(Isa isa);
F32ArrayFn silu_in_float_n_kernel(Isa isa);

}  // namespace twinrt::math
