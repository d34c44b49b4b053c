// erf: a Maclaurin series below 0.5, Taylor expansions around the centres 0.75, 1.25, ...,
// 5.75 up to 6 (coefficients in tables.h), and +-1 beyond, where 1 - erf(x) < 2^-54.
#include <cmath>

#include "kernels/math/internal.h"
#include "kernels/math/math.h"
#include "kernels/math/tables.h"

namespace twinrt::math {

double erf(double x) {
  if (internal::is_nan(x)) return x + x;
  double ax = std::fabs(x);
  double v;
  if (ax >= 6) {
    v = 1.0;
  } else if (ax < 0.5) {
    // erf(x) = (2/sqrt(pi)) x (1 + T), T = sum_n c_n x^(2n) in [-0.08, 0]
    double z = ax * ax;
    double t = z * internal::horner(tables::kErfMaclaurin, z);
    DD s = fast_two_sum(1.0, t);
    v = internal::round_dd(dd_mul_d(dd_mul(tables::kTwoOverSqrtPi, s), ax));
  } else {
    int j = static_cast<int>((ax - 0.5) * 2);
    double t = ax - (0.75 + 0.5 * j);  // exact: |t| <= 0.25 and ax >= 0.5
    double p = t * internal::horner(tables::kErfTaylor[j], t);
    v = internal::round_dd(dd_add_d(tables::kErfCentreValue[j], p));
  }
  return std::copysign(v, x);  // keeps erf(-0) = -0
}

}  // namespace twinrt::math
