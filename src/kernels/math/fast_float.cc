#include "kernels/math/fast_float.h"

#include <cstdint>
#include <cstring>
#include <limits>

#include "kernels/math/tables.h"

namespace twinrt::math {
namespace {

// exp(r) = sum r^n / n!, n <= 11: for |r| <= ln2 / 2 the remainder is below 2^-46.
constexpr double kExpTaylor[] = {1.0,
                                 1.0,
                                 1.0 / 2,
                                 1.0 / 6,
                                 1.0 / 24,
                                 1.0 / 120,
                                 1.0 / 720,
                                 1.0 / 5040,
                                 1.0 / 40320,
                                 1.0 / 362880,
                                 1.0 / 3628800,
                                 1.0 / 39916800};

// Round to the nearest integer (ties to even) for |d| < 2^51: adding 1.5 * 2^52 leaves no
// fraction bits, and the subtraction is exact.
inline double round_to_integer(double d) {
  constexpr double kShift = 0x1.8p52;
  return (d + kShift) - kShift;
}

// c[0] + c[1] x + ... + c[M-1] x^(M-1) as two Horner chains in x^2, over the even and the
// odd coefficients: half the dependent steps of one chain (the latency, not the operation
// count, bounds these loops).
template <size_t M>
inline double two_chain_poly(const double* c, double x) {
  static_assert(M >= 2);
  const double x2 = x * x;
  constexpr size_t kTopEven = (M - 1) / 2 * 2, kTopOdd = M % 2 == 0 ? M - 1 : M - 2;
  double even = c[kTopEven], odd = c[kTopOdd];
  for (size_t i = kTopEven; i >= 2; i -= 2) even = even * x2 + c[i - 2];
  for (size_t i = kTopOdd; i >= 3; i -= 2) odd = odd * x2 + c[i - 2];
  return even + x * odd;
}

// Terms of the erf series (tables.h) kept at float precision: the fewest with which the
// accuracy test still finds every sampled result correctly rounded.
constexpr size_t kErfMaclaurinTerms = 9;
constexpr size_t kErfTaylorTerms = 13;

inline double pow2(int64_t k) {  // 2^k for -1022 <= k <= 1023
  const uint64_t bits = static_cast<uint64_t>(k + 1023) << 52;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

}  // namespace

float exp_f32(float x) {
  if (x != x) return x + x;
  if (x > 89.0f) return std::numeric_limits<float>::infinity();  // e^88.73 > FLT_MAX already
  if (x < -104.0f) return 0.0f;                                    // e^-104 < 2^-150: rounds to 0
  const double k = round_to_integer(static_cast<double>(x) * tables::kInvLn2);
  // x - k ln2 with ln2 in two parts: k has at most 8 bits, kLn2Hi 40, so k * kLn2Hi is exact.
  const double r = (static_cast<double>(x) - k * tables::kLn2Hi) - k * tables::kLn2Lo;
  // One rounding to float, also into the subnormal range and to infinity.
  return static_cast<float>(two_chain_poly<12>(kExpTaylor, r) * pow2(static_cast<int64_t>(k)));
}

float erf_f32(float x) {
  if (x != x) return x + x;
  const double ax = x < 0 ? -static_cast<double>(x) : static_cast<double>(x);
  double v;
  if (ax >= 4.0) {
    v = 1.0;  // 1 - erf(4) < 2^-25: rounds to 1
  } else if (ax < 0.5) {
    const double z = ax * ax;
    v = tables::kTwoOverSqrtPi.hi * ax * (1.0 + z * two_chain_poly<kErfMaclaurinTerms>(tables::kErfMaclaurin, z));
  } else {
    const int j = static_cast<int>((ax - 0.5) * 2);
    const double t = ax - (0.75 + 0.5 * j);  // exact: |t| <= 0.25
    v = tables::kErfCentreValue[j].hi +
        (tables::kErfCentreValue[j].lo + t * two_chain_poly<kErfTaylorTerms>(tables::kErfTaylor[j], t));
  }
  return static_cast<float>(x < 0 ? -v : v);  // erf(-0) = -0
}

}  // namespace twinrt::math
