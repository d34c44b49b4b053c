// Building blocks shared by the elementary functions, in double-double precision.
// Internal to src/kernels/math.
#pragma once

#include <cstddef>

#include "kernels/math/dd.h"

namespace twinrt::math::internal {

// e^x as v * 2^k with v = 1 + (small) as a double-double, for |x.hi| <= 746.
struct ScaledDD {
  DD v;
  int k;
};
ScaledDD exp_scaled(DD x);

// e^x - 1 as a double-double, relative error below 2^-57, for |x| <= 45.
DD expm1_dd(double x);

// log(x) as a double-double, relative error below 2^-64, for finite x > 0.
DD log_dd(double x);

// log(1 + w) as a double-double for finite w > -1.
DD log1p_dd(DD w);

// The double nearest to a double-double (normalised, so it is hi).
inline double round_dd(DD a) { return a.hi + a.lo; }

inline bool is_nan(double x) { return x != x; }

// sign / n!, exact in the divisor for n <= 22.
constexpr double inv_factorial(int n, int sign = 1) {
  double f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return sign / f;
}

// c[0] + c[1] x + c[2] x^2 + ...
template <size_t N>
double horner(const double (&c)[N], double x) {
  double p = c[N - 1];
  for (size_t i = N - 1; i-- > 0;) p = p * x + c[i];
  return p;
}

}  // namespace twinrt::math::internal
