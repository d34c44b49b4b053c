// Accuracy checks for twinrt::math against glibc's long double functions (80-bit on
// x86-64, so their own error is far below a double ulp). libm is allowed in tests only.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <vector>

namespace twinrt::math_test {

// |got - ref| in units of the spacing of doubles at ref (subnormal spacing below DBL_MIN).
inline double ulp_error(double got, long double ref) {
  double ref_d = static_cast<double>(ref);
  if (std::isnan(ref_d)) return std::isnan(got) ? 0 : INFINITY;
  if (got == ref_d) return 0;
  if (!std::isfinite(got) || !std::isfinite(ref_d)) return INFINITY;
  int e;
  std::frexp(std::fabs(ref), &e);  // |ref| = m 2^e, m in [0.5, 1)
  int ulp_exp = e - 53 < -1074 ? -1074 : e - 53;
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) /
                             std::ldexp(1.0L, ulp_exp));
}

struct Range {
  double lo, hi;
  bool log_scale;  // sample |x| log-uniformly (lo, hi > 0), random sign if `lo` is negative
};

inline std::vector<double> sample(const Range& r, int n, std::mt19937_64& rng) {
  std::vector<double> xs;
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < n; ++i) {
    if (r.log_scale) {
      double lo = std::fabs(r.lo), hi = std::fabs(r.hi);
      double x = std::exp(std::log(lo) + u(rng) * (std::log(hi) - std::log(lo)));
      xs.push_back(r.lo < 0 && (rng() & 1) ? -x : x);
    } else {
      xs.push_back(r.lo + u(rng) * (r.hi - r.lo));
    }
  }
  return xs;
}

// Checks `ours` over `n` random points of each range; returns the largest error in ulps.
inline double max_ulp_error(const char* name, const std::function<double(double)>& ours,
                            const std::function<long double(long double)>& ref,
                            const std::vector<Range>& ranges, int n = 20000) {
  std::mt19937_64 rng(12345);
  double worst = 0, worst_x = 0;
  for (const Range& r : ranges) {
    for (double x : sample(r, n, rng)) {
      double err = ulp_error(ours(x), ref(x));
      if (err > worst) {
        worst = err;
        worst_x = x;
      }
    }
  }
  std::printf("  %-6s max error %.3f ulp at %a\n", name, worst, worst_x);
  return worst;
}

// Bitwise equality (distinguishes -0 from +0, all NaNs equal).
inline bool same_double(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  uint64_t ua, ub;
  std::memcpy(&ua, &a, 8);
  std::memcpy(&ub, &b, 8);
  return ua == ub;
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kMinSubnormal = std::numeric_limits<double>::denorm_min();
constexpr double kMaxDouble = std::numeric_limits<double>::max();

// Allowed error of twinrt::math against the long double reference.
constexpr double kMaxUlp = 2.0;

}  // namespace twinrt::math_test
