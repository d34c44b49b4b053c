// pow(x, y) = e^(y log|x|) with log|x| in double-double, and the special cases of C99
// Annex F (pow(x, +-0) = 1, pow(1, y) = 1, signed zeros and infinities, negative bases
// with integer exponents).
#include <cmath>
#include <limits>

#include "kernels/math/internal.h"
#include "kernels/math/math.h"

namespace twinrt::math {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool sign_bit(double x) { return (double_bits(x) >> 63) != 0; }

bool is_odd_integer(double y) {
  // Every double at or above 2^53 is even.
  return std::fabs(y) < 0x1p53 && std::trunc(y) == y && std::fmod(y, 2.0) != 0;
}

// |x|^y for finite nonzero x and finite nonzero y, x != 1.
double pow_magnitude(double ax, double y) {
  // |log x| >= 2^-53 for x != 1, so |y| >= 2^63 puts |y log x| far beyond the range of exp.
  bool grows = (ax > 1) == (y > 0);
  if (std::fabs(y) >= 0x1p63) return grows ? kInf : 0.0;
  DD t = dd_mul_d(internal::log_dd(ax), y);
  if (t.hi > 710) return kInf;
  if (t.hi < -746) return 0.0;
  internal::ScaledDD e = internal::exp_scaled(t);
  return scale_pow2(internal::round_dd(e.v), e.k);
}

}  // namespace

double pow(double x, double y) {
  if (y == 0 || x == 1) return 1.0;
  if (internal::is_nan(x) || internal::is_nan(y)) return x + y;
  double ax = std::fabs(x);
  if (std::fabs(y) == kInf) {
    if (ax == 1) return 1.0;  // pow(-1, +-inf) = 1
    return ((ax > 1) == (y > 0)) ? kInf : 0.0;
  }
  bool negate = sign_bit(x) && is_odd_integer(y);
  double magnitude;
  if (ax == 0) {
    magnitude = y < 0 ? kInf : 0.0;
  } else if (ax == kInf) {
    magnitude = y < 0 ? 0.0 : kInf;
  } else {
    if (x < 0 && std::trunc(y) != y) return std::numeric_limits<double>::quiet_NaN();
    magnitude = pow_magnitude(ax, y);
  }
  return negate ? -magnitude : magnitude;
}

}  // namespace twinrt::math
