// sin, cos, tan: reduce modulo pi/2 (trig_reduce.cc), then Taylor polynomials on
// |r| <= pi/4 with the leading term kept in double-double.
#include <cmath>

#include "kernels/math/internal.h"
#include "kernels/math/math.h"
#include "kernels/math/trig_reduce.h"

namespace twinrt::math {
namespace {

using internal::horner;
using internal::inv_factorial;
using internal::is_nan;
using internal::round_dd;

// sin(r) = r + r^3 (-1/3! + z/5! - ... + z^8/19!), z = r^2; the omitted term is below
// 2^-60 r for |r| <= pi/4.
constexpr double kSinTaylor[] = {
    inv_factorial(3, -1),  inv_factorial(5, 1),  inv_factorial(7, -1),
    inv_factorial(9, 1),   inv_factorial(11, -1), inv_factorial(13, 1),
    inv_factorial(15, -1), inv_factorial(17, 1),  inv_factorial(19, -1)};

// cos(r) = 1 - z/2 + z^2 (1/4! - z/6! + ... + z^7/18!); the omitted term is below 2^-58.
constexpr double kCosTaylor[] = {
    inv_factorial(4, 1),   inv_factorial(6, -1),  inv_factorial(8, 1),
    inv_factorial(10, -1), inv_factorial(12, 1),  inv_factorial(14, -1),
    inv_factorial(16, 1),  inv_factorial(18, -1)};

DD sin_kernel(DD r) {
  double z = r.hi * r.hi;
  // sin(hi + lo) ~ sin(hi) + lo cos(hi)
  double tail = r.hi * z * horner(kSinTaylor, z) + r.lo * (1.0 - 0.5 * z);
  return fast_two_sum(r.hi, tail);
}

DD cos_kernel(DD r) {
  DD sq = two_prod(r.hi, r.hi);
  double half = 0.5 * sq.hi;
  double w = 1.0 - half;
  // (1 - w) - half recovers the rounding error of w exactly; cos(hi + lo) ~ cos(hi) - lo hi.
  double tail = ((1.0 - w) - half) - 0.5 * sq.lo +
                (sq.hi * sq.hi * horner(kCosTaylor, sq.hi) - r.hi * r.lo);
  return fast_two_sum(w, tail);
}

// sin or cos of a reduced argument in quadrant q (0..3), as a double-double.
DD sin_of_quadrant(DD r, int q) {
  DD v = (q & 1) ? cos_kernel(r) : sin_kernel(r);
  return (q & 2) ? dd_neg(v) : v;
}

}  // namespace

double sin(double x) {
  if (is_nan(x) || std::fabs(x) == INFINITY) return x - x;
  double ax = std::fabs(x);
  if (ax < 0x1p-26) return x;  // x^3/6 is below half an ulp
  DD r;
  int q = internal::reduce_pio2(ax, &r);
  double v = round_dd(sin_of_quadrant(r, q));
  return x < 0 ? -v : v;
}

double cos(double x) {
  if (is_nan(x) || std::fabs(x) == INFINITY) return x - x;
  double ax = std::fabs(x);
  if (ax < 0x1p-27) return 1.0;
  DD r;
  int q = internal::reduce_pio2(ax, &r);
  return round_dd(sin_of_quadrant(r, q + 1));  // cos(x) = sin(x + pi/2)
}

double tan(double x) {
  if (is_nan(x) || std::fabs(x) == INFINITY) return x - x;
  double ax = std::fabs(x);
  if (ax < 0x1p-27) return x;
  DD r;
  int q = internal::reduce_pio2(ax, &r);
  DD s = sin_kernel(r), c = cos_kernel(r);
  double v = round_dd((q & 1) ? dd_neg(dd_div(c, s)) : dd_div(s, c));
  return x < 0 ? -v : v;
}

}  // namespace twinrt::math
