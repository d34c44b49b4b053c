// Double-double arithmetic: a value is the unevaluated sum hi + lo of two doubles, giving
// about 106 bits of precision. The elementary functions carry their intermediate results
// this way so that the final rounding to double is the only noticeable error. Products are
// split with Veltkamp's method rather than fma (which WebAssembly lacks), so operands must
// stay below about 2^995 in magnitude. Internal to src/kernels/math.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace twinrt::math {

struct DD {
  double hi;
  double lo;
};

inline uint64_t double_bits(double x) { uint64_t u; std::memcpy(&u, &x, 8); return u; }
inline double bits_double(uint64_t u) { double x; std::memcpy(&x, &u, 8); return x; }

// 2^n for -1022 <= n <= 1023.
inline double pow2(int n) { return bits_double(static_cast<uint64_t>(n + 1023) << 52); }

// x * 2^n, rounded once, for x within a factor 4 of 1 and any n (overflows to inf,
// underflows through the subnormals to 0).
inline double scale_pow2(double x, int n) {
  if (n > 1023) {
    x *= pow2(1023);
    n -= 1023;
    if (n > 1023) n = 1023;  // the result is infinite anyway
    return x * pow2(n);
  }
  if (n < -1022) {
    // First an exact scaling into the normal range, then one rounding into the subnormals.
    if (n < -1022 - 600) n = -1022 - 600;
    return (x * pow2(n + 600)) * pow2(-600);
  }
  return x * pow2(n);
}

// a + b exactly, given |a| >= |b| (or a == 0).
inline DD fast_two_sum(double a, double b) {
  double s = a + b;
  return {s, b - (s - a)};
}

// a + b exactly, any order.
inline DD two_sum(double a, double b) {
  double s = a + b;
  double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

inline DD veltkamp_split(double a) {
  constexpr double kSplitter = 134217729.0;  // 2^27 + 1
  double t = kSplitter * a;
  double hi = t - (t - a);
  return {hi, a - hi};
}

// a * b exactly (when no underflow occurs).
inline DD two_prod(double a, double b) {
  double p = a * b;
  DD x = veltkamp_split(a);
  DD y = veltkamp_split(b);
  double err = ((x.hi * y.hi - p) + x.hi * y.lo + x.lo * y.hi) + x.lo * y.lo;
  return {p, err};
}

inline DD dd_neg(DD a) { return {-a.hi, -a.lo}; }

inline DD dd_add(DD a, DD b) {
  DD s = two_sum(a.hi, b.hi);
  DD t = two_sum(a.lo, b.lo);
  s = fast_two_sum(s.hi, s.lo + t.hi);
  return fast_two_sum(s.hi, s.lo + t.lo);
}

inline DD dd_sub(DD a, DD b) { return dd_add(a, dd_neg(b)); }

inline DD dd_add_d(DD a, double b) {
  DD s = two_sum(a.hi, b);
  return fast_two_sum(s.hi, s.lo + a.lo);
}

inline DD dd_mul(DD a, DD b) {
  DD p = two_prod(a.hi, b.hi);
  return fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

inline DD dd_mul_d(DD a, double b) {
  DD p = two_prod(a.hi, b);
  return fast_two_sum(p.hi, p.lo + a.lo * b);
}

// Multiplication by a power of two is exact (barring over/underflow).
inline DD dd_scale(DD a, double pow2_factor) { return {a.hi * pow2_factor, a.lo * pow2_factor}; }

inline DD dd_div(DD a, DD b) {
  double q = a.hi / b.hi;
  DD p = two_prod(q, b.hi);
  // a.hi - p.hi is exact: q * b.hi is within an ulp of a.hi.
  double r = (((a.hi - p.hi) - p.lo) + a.lo - q * b.lo) / b.hi;
  return fast_two_sum(q, r);
}

// sqrt(a) for a >= 0.
inline DD dd_sqrt(DD a) {
  if (a.hi <= 0) return {0, 0};
  double s = std::sqrt(a.hi);
  DD p = two_prod(s, s);
  return fast_two_sum(s, (((a.hi - p.hi) - p.lo) + a.lo) / (2 * s));
}

}  // namespace twinrt::math
