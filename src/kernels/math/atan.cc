// atan, atan2, asin, acos through one core: atan(n / d) for n, d >= 0 in double-double.
// The ratio q <= 1 (swapping n and d if needed, atan(d/n) = pi/2 - atan(n/d)) is reduced
// around the nearest c = j/16: atan(q) = atan(c) + atan((q - c) / (1 + q c)), the second
// argument being at most 1/32, where a short odd Taylor series suffices.
#include <cmath>
#include <limits>
#include <utility>

#include "kernels/math/internal.h"
#include "kernels/math/math.h"
#include "kernels/math/tables.h"

namespace twinrt::math {
namespace {

using internal::horner;
using internal::is_nan;
using internal::round_dd;

// atan(u) = u + u^3 (-1/3 + z/5 - z^2/7 + ...), z = u^2 <= 2^-10; the omitted term is
// below 2^-70 u.
constexpr double kAtanTaylor[] = {-1.0 / 3, 1.0 / 5, -1.0 / 7, 1.0 / 9, -1.0 / 11, 1.0 / 13};

// atan(q) for q in [0, 1].
DD atan_unit(DD q) {
  int j = static_cast<int>(q.hi * 16 + 0.5);
  double c = j / 16.0;
  // q.hi - c is exact (the operands are within a factor 2 of each other, or c = 0).
  DD num = two_sum(q.hi - c, q.lo);
  DD den = dd_add_d(dd_add_d(two_prod(q.hi, c), q.lo * c), 1.0);
  DD u = dd_div(num, den);
  double z = u.hi * u.hi;
  DD atan_u = fast_two_sum(u.hi, u.lo + u.hi * z * horner(kAtanTaylor, z));
  return dd_add(tables::kAtanOfSixteenths[j], atan_u);
}

// atan(n / d) in [0, pi/2] for n, d >= 0, not both zero, both below 2^600.
DD atan_ratio(DD n, DD d) {
  bool swapped = n.hi > d.hi;
  if (swapped) std::swap(n, d);
  DD a = atan_unit(dd_div(n, d));
  return swapped ? dd_sub(tables::kPio2, a) : a;
}

// sqrt(1 - a^2) for 0 <= a <= 1, from the exact factors (1 - a) and (1 + a).
DD sqrt_one_minus_square(double a) {
  return dd_sqrt(dd_mul(two_sum(1.0, -a), two_sum(1.0, a)));
}

}  // namespace

double atan(double x) {
  if (is_nan(x)) return x + x;
  double ax = std::fabs(x);
  double v;
  if (ax < 0x1p-27) return x;  // x^3/3 is below half an ulp
  if (ax > 0x1p60) {
    v = round_dd(dd_add_d(tables::kPio2, -1.0 / ax));  // atan(x) = pi/2 - 1/x + ...
  } else {
    v = round_dd(atan_ratio(DD{ax, 0}, DD{1.0, 0}));
  }
  return x < 0 ? -v : v;
}

double atan2(double y, double x) {
  if (is_nan(x) || is_nan(y)) return x + y;
  bool y_negative = (double_bits(y) >> 63) != 0;
  bool x_negative = (double_bits(x) >> 63) != 0;  // atan2(+-0, -0) = +-pi
  double ay = std::fabs(y), ax = std::fabs(x);
  DD angle;  // in [0, pi], for |y| and the sign of x
  if (ay == INFINITY) {
    angle = tables::kPio2;
    if (ax == INFINITY) {
      angle = dd_scale(tables::kPio2, 0.5);
      if (x_negative) angle = dd_sub(tables::kPi, angle);
    }
  } else if (ay == 0 || ax == INFINITY) {
    angle = x_negative ? tables::kPi : DD{0, 0};
  } else if (ax == 0) {
    angle = tables::kPio2;
  } else if (ay < ax * 0x1p-60) {  // atan(q) = q - q^3/3 rounds to q
    DD q = {ay / ax, 0};
    angle = x_negative ? dd_sub(tables::kPi, q) : q;
  } else if (ax < ay * 0x1p-60) {
    angle = dd_add_d(tables::kPio2, (x_negative ? 1 : -1) * (ax / ay));
  } else {
    // Scale by a power of two (exact) so the double-double steps neither overflow nor
    // underflow; the operands are within a factor 2^60 of each other.
    double big = ax > ay ? ax : ay;
    double scale = big > 0x1p500 ? 0x1p-600 : (big < 0x1p-500 ? 0x1p600 : 1.0);
    angle = atan_ratio(DD{ay * scale, 0}, DD{ax * scale, 0});
    if (x_negative) angle = dd_sub(tables::kPi, angle);
  }
  double v = round_dd(angle);
  return y_negative ? -v : v;
}

double asin(double x) {
  if (is_nan(x)) return x + x;
  double ax = std::fabs(x);
  if (ax > 1) return std::numeric_limits<double>::quiet_NaN();
  if (ax < 0x1p-27) return x;  // x^3/6 is below half an ulp
  double v = round_dd(atan_ratio(DD{ax, 0}, sqrt_one_minus_square(ax)));
  return x < 0 ? -v : v;
}

double acos(double x) {
  if (is_nan(x)) return x + x;
  double ax = std::fabs(x);
  if (ax > 1) return std::numeric_limits<double>::quiet_NaN();
  DD a = atan_ratio(sqrt_one_minus_square(ax), DD{ax, 0});
  return round_dd(x < 0 ? dd_sub(tables::kPi, a) : a);
}

}  // namespace twinrt::math
