// Float elementary functions for the fast modes (default, exact): computed in plain double
// arithmetic with short polynomials, no double-double steps and no data-dependent branch
// in the common range, then rounded once to float. The double result is within 2^-44
// (relative) of the true value, so the float is the correctly rounded one except when the
// true value lies that close to a rounding boundary: within 1 ulp always (accuracy tests
// in tests/unit/math_fast_float_test.cc report the largest error and how often it is not
// the correctly rounded float). Like math.h, one fixed sequence of IEEE operations, so the
// same bits on every target. Reference mode keeps math.h's functions.
#pragma once

namespace twinrt::math {

float exp_f32(float x);
float erf_f32(float x);

}  // namespace twinrt::math
