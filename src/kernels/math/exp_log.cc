// exp, expm1, log, log1p and their double-double building blocks.
//
// exp: x = k ln2 + r with |r| <= ln2/2 (ln2 in two parts, so k * kLn2Hi is exact), then a
// Taylor polynomial for e^r - 1 whose leading terms r + r^2/2 are kept in double-double.
// log: x = 2^e m with m in [sqrt(1/2), sqrt(2)), log(m) = 2 atanh(s), s = (m-1)/(m+1),
// summed in double-double. Every public function rounds a double-double once.
#include <cmath>
#include <limits>

#include "kernels/math/internal.h"
#include "kernels/math/math.h"
#include "kernels/math/tables.h"

namespace twinrt::math {
namespace internal {
namespace {

// 1/n! for n = 4..14: e^r - 1 - r - r^2/2 - r^3/6 = r^4 (1/4! + r/5! + ...); the first
// omitted term, r^15/15!, is below 2^-64 r for |r| <= ln2/2.
constexpr double kExpTaylor[] = {
    inv_factorial(4),  inv_factorial(5),  inv_factorial(6),  inv_factorial(7),
    inv_factorial(8),  inv_factorial(9),  inv_factorial(10), inv_factorial(11),
    inv_factorial(12), inv_factorial(13), inv_factorial(14)};

// 1/(2n+1) for n = 2..11: atanh(s)/s = 1 + z/3 + z^2 (1/5 + z/7 + ...), z = s^2 <= 0.0295;
// the first omitted term is below 2^-66.
constexpr double kAtanhSeries[] = {1.0 / 5,  1.0 / 7,  1.0 / 9,  1.0 / 11, 1.0 / 13,
                                   1.0 / 15, 1.0 / 17, 1.0 / 19, 1.0 / 21, 1.0 / 23};

constexpr double kSqrt2 = 0x1.6a09e667f3bcdp+0;
// log1p_core accepts f = m - 1 for m in [sqrt(1/2), sqrt(2)].
constexpr double kCoreMin = 0x1.6a09e667f3bcdp-1 - 1.0;
constexpr double kCoreMax = kSqrt2 - 1.0;

// e^(r + r_lo) - 1 for |r| <= ~0.35 and |r_lo| <= ulp(r).
DD expm1_reduced(double r, double r_lo) {
  DD sq = two_prod(r, r);
  double cubic_and_up = r * sq.hi * (inv_factorial(3) + r * horner(kExpTaylor, r));
  DD s = fast_two_sum(r, 0.5 * sq.hi);
  // d/dr (e^r - 1) = e^r ~ 1 + r carries the low part of the argument.
  double tail = s.lo + 0.5 * sq.lo + cubic_and_up + r_lo * (1.0 + r);
  return fast_two_sum(s.hi, tail);
}

// log(1 + f) for f in [kCoreMin, kCoreMax], f exact.
DD log1p_core(double f) {
  DD s = dd_div(DD{f, 0}, fast_two_sum(2.0, f));
  DD z = dd_mul(s, s);
  DD v = dd_add(tables::kOneThird, dd_mul_d(z, horner(kAtanhSeries, z.hi)));
  DD q = dd_add_d(dd_mul(z, v), 1.0);
  return dd_mul(dd_scale(s, 2.0), q);
}

}  // namespace

ScaledDD exp_scaled(DD x) {
  double kd = std::nearbyint(x.hi * tables::kInvLn2);
  // kd * kLn2Hi is exact (|kd| < 2^13, kLn2Hi has 40 bits) and so is the subtraction
  // (the operands are within a factor 2 of each other).
  double r_hi = x.hi - kd * tables::kLn2Hi;
  DD r = two_sum(r_hi, x.lo - kd * tables::kLn2Lo);
  DD em = expm1_reduced(r.hi, r.lo);
  DD one_plus = fast_two_sum(1.0, em.hi);
  return {fast_two_sum(one_plus.hi, one_plus.lo + em.lo), static_cast<int>(kd)};
}

DD expm1_dd(double x) {
  double kd = std::nearbyint(x * tables::kInvLn2);
  if (kd == 0) return expm1_reduced(x, 0);
  DD r = two_sum(x - kd * tables::kLn2Hi, -kd * tables::kLn2Lo);
  DD em = expm1_reduced(r.hi, r.lo);
  // e^x - 1 = 2^k (1 + em) - 1 = 2^k em + (2^k - 1)
  double p = pow2(static_cast<int>(kd));
  return dd_add(dd_scale(em, p), two_sum(p, -1.0));
}

DD log_dd(double x) {
  uint64_t b = double_bits(x);
  int e = 0;
  if (b < (uint64_t{1} << 52)) {  // subnormal: scale into the normal range
    b = double_bits(x * 0x1p54);
    e = -54;
  }
  e += static_cast<int>(b >> 52) - 1023;
  double m = bits_double((b & ((uint64_t{1} << 52) - 1)) | (uint64_t{1023} << 52));  // [1, 2)
  if (m > kSqrt2) {
    m *= 0.5;
    ++e;
  }
  DD l = log1p_core(m - 1.0);  // m - 1 is exact
  if (e == 0) return l;
  double ed = e;
  return dd_add(fast_two_sum(ed * tables::kLn2Hi, ed * tables::kLn2Lo), l);
}

DD log1p_dd(DD w) {
  if (w.hi >= kCoreMin && w.hi <= kCoreMax)
    return dd_add_d(log1p_core(w.hi), w.lo / (1.0 + w.hi));
  DD u = dd_add_d(w, 1.0);
  return dd_add_d(log_dd(u.hi), u.lo / u.hi);
}

}  // namespace internal

using internal::is_nan;
using internal::round_dd;

double exp(double x) {
  if (is_nan(x)) return x + x;
  if (x > 709.79) return std::numeric_limits<double>::infinity();  // above log(DBL_MAX)
  if (x < -745.2) return 0.0;  // below log of half the smallest subnormal
  if (std::fabs(x) < 0x1p-54) return 1.0 + x;
  internal::ScaledDD e = internal::exp_scaled(DD{x, 0});
  return scale_pow2(round_dd(e.v), e.k);
}

double expm1(double x) {
  if (is_nan(x)) return x + x;
  if (x > 45) return exp(x);  // the -1 is below half an ulp
  if (x < -45) return -1.0;   // e^x is below half an ulp of 1
  if (std::fabs(x) < 0x1p-54) return x;
  return round_dd(internal::expm1_dd(x));
}

double log(double x) {
  if (is_nan(x)) return x + x;
  if (x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (x == std::numeric_limits<double>::infinity()) return x;
  return round_dd(internal::log_dd(x));
}

double log1p(double x) {
  if (is_nan(x)) return x + x;
  if (x < -1) return std::numeric_limits<double>::quiet_NaN();
  if (x == -1) return -std::numeric_limits<double>::infinity();
  if (x == std::numeric_limits<double>::infinity()) return x;
  if (std::fabs(x) < 0x1p-54) return x;
  return round_dd(internal::log1p_dd(DD{x, 0}));
}

}  // namespace twinrt::math
