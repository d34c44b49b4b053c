// sinh, cosh, tanh from e^x - 1 in double-double (no cancellation near 0); asinh, acosh,
// atanh from log(1 + w) with w in double-double.
#include <cmath>
#include <limits>

#include "kernels/math/internal.h"
#include "kernels/math/math.h"
#include "kernels/math/tables.h"

namespace twinrt::math {
namespace {

using internal::expm1_dd;
using internal::is_nan;
using internal::log1p_dd;
using internal::log_dd;
using internal::round_dd;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr DD kLn2 = {tables::kLn2Hi, tables::kLn2Lo};

// Beyond this, e^-|x| is below 2^-63 e^|x| and the hyperbolic functions follow e^|x|/2.
constexpr double kOneExponential = 22;

double half_exp(double ax) {
  if (ax > 711) return kInf;
  internal::ScaledDD e = internal::exp_scaled(DD{ax, 0});
  return scale_pow2(round_dd(e.v), e.k - 1);
}

// log(2 a) for a > 2^28, where asinh(a) and acosh(a) agree with it to 2^-58.
double log_of_double(double a) { return round_dd(dd_add(log_dd(a), kLn2)); }

}  // namespace

double sinh(double x) {
  if (is_nan(x)) return x + x;
  double ax = std::fabs(x);
  if (ax < 0x1p-28) return x;  // x^3/6 is below half an ulp
  double v;
  if (ax <= kOneExponential) {
    // sinh = (E + E / (E + 1)) / 2 with E = e^|x| - 1
    DD e = expm1_dd(ax);
    v = round_dd(dd_scale(dd_add(e, dd_div(e, dd_add_d(e, 1.0))), 0.5));
  } else {
    v = half_exp(ax);
  }
  return x < 0 ? -v : v;
}

double cosh(double x) {
  if (is_nan(x)) return x + x;
  double ax = std::fabs(x);
  if (ax < 0x1p-27) return 1.0;
  if (ax > kOneExponential) return half_exp(ax);
  DD e = dd_add_d(expm1_dd(ax), 1.0);
  return round_dd(dd_scale(dd_add(e, dd_div(DD{1.0, 0}, e)), 0.5));
}

double tanh(double x) {
  if (is_nan(x)) return x + x;
  double ax = std::fabs(x);
  if (ax < 0x1p-28) return x;
  double v = 1.0;  // 1 - tanh(|x|) < 2^-63 beyond kOneExponential
  if (ax <= kOneExponential) {
    DD e = expm1_dd(2 * ax);  // tanh = E / (E + 2) with E = e^(2|x|) - 1
    v = round_dd(dd_div(e, dd_add_d(e, 2.0)));
  }
  return x < 0 ? -v : v;
}

double asinh(double x) {
  if (is_nan(x) || std::fabs(x) == kInf) return x + x;
  double ax = std::fabs(x);
  if (ax < 0x1p-28) return x;
  double v;
  if (ax > 0x1p28) {
    v = log_of_double(ax);
  } else {
    // asinh(a) = log1p(a + a^2 / (1 + sqrt(1 + a^2)))
    DD square = two_prod(ax, ax);
    DD root = dd_sqrt(dd_add_d(square, 1.0));
    v = round_dd(log1p_dd(dd_add_d(dd_div(square, dd_add_d(root, 1.0)), ax)));
  }
  return x < 0 ? -v : v;
}

double acosh(double x) {
  if (is_nan(x)) return x + x;
  if (x < 1) return std::numeric_limits<double>::quiet_NaN();
  if (x == kInf) return x;
  if (x > 0x1p28) return log_of_double(x);
  // acosh(x) = log1p((x - 1) + sqrt((x - 1)(x + 1)))
  DD below = two_sum(x, -1.0);
  DD root = dd_sqrt(dd_mul(below, two_sum(x, 1.0)));
  return round_dd(log1p_dd(dd_add(below, root)));
}

double atanh(double x) {
  if (is_nan(x)) return x + x;
  double ax = std::fabs(x);
  if (ax > 1) return std::numeric_limits<double>::quiet_NaN();
  if (ax == 1) return x * kInf;
  if (ax < 0x1p-28) return x;
  // atanh(a) = log1p(2a / (1 - a)) / 2
  DD w = dd_div(DD{2 * ax, 0}, two_sum(1.0, -ax));
  double v = round_dd(dd_scale(log1p_dd(w), 0.5));
  return x < 0 ? -v : v;
}

}  // namespace twinrt::math
