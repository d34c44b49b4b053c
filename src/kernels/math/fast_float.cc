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
template <class T>
inline T round_to_integer(T d) {
  constexpr double kShift = 0x1.8p52;
  return (d + kShift) - kShift;
}

// c[0] + c[1] x + ... + c[M-1] x^(M-1) as two Horner chains in x^2, over the even and the
// odd coefficients: half the dependent steps of one chain (the latency, not the operation
// count, bounds these loops).
// T is double or a vector of doubles (the array functions below): one template, so both
// run the same operations in the same order and give the same bits.
// `coef(i)` gives coefficient i as a T (per lane, for a vector of table rows).
template <size_t M, class T, class Coef>
inline T two_chain_poly_by(Coef coef, T x) {
  static_assert(M >= 2);
  const T x2 = x * x;
  constexpr size_t kTopEven = (M - 1) / 2 * 2, kTopOdd = M % 2 == 0 ? M - 1 : M - 2;
  T even = coef(kTopEven), odd = coef(kTopOdd);
  for (size_t i = kTopEven; i >= 2; i -= 2) even = even * x2 + coef(i - 2);
  for (size_t i = kTopOdd; i >= 3; i -= 2) odd = odd * x2 + coef(i - 2);
  return even + x * odd;
}

template <size_t M, class T>
inline T two_chain_poly(const double* c, T x) {
  return two_chain_poly_by<M>([c](size_t i) { return c[i] - T{}; }, x);  // c - 0 is c, as a T
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


// The array functions: two lanes of double at a time (one SSE2 / SIMD128 register), each
// lane through the operations of the scalar function above in the same order (no
// contraction: -ffp-contract=off), so every element gets the scalar function's bits. Lanes
// outside a branch's range compute on a harmless stand-in value and are replaced by a select.
namespace {

typedef double D2 __attribute__((vector_size(16)));
typedef int64_t I2 __attribute__((vector_size(16)));

// 2^k per lane for integral k in [-1022, 1023].
inline D2 pow2_lanes(D2 k) {
  const I2 bits = (__builtin_convertvector(k, I2) + 1023) << 52;
  D2 d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

inline D2 widen(const float* x) { return D2{x[0], x[1]}; }

inline void exp_lanes(const float* x, float* y) {
  const D2 xd = widen(x);
  const D2 safe = (xd >= -104.0) & (xd <= 89.0) ? xd : D2{};
  const D2 k = round_to_integer(safe * tables::kInvLn2);
  const D2 r = (safe - k * tables::kLn2Hi) - k * tables::kLn2Lo;
  const D2 v = two_chain_poly<12>(kExpTaylor, r) * pow2_lanes(k);
  for (int l = 0; l < 2; ++l) {
    const float xl = x[l];
    y[l] = xl != xl ? xl + xl : xl > 89.0f ? std::numeric_limits<float>::infinity() : xl < -104.0f ? 0.0f
                                                                                                     : static_cast<float>(v[l]);
  }
}

inline void erf_lanes(const float* x, float* y) {
  const D2 xd = widen(x);
  const D2 ax = xd < 0 ? -xd : xd;
  const D2 z = ax * ax;
  const D2 near_zero =
      tables::kTwoOverSqrtPi.hi * ax * (1.0 + z * two_chain_poly<kErfMaclaurinTerms>(tables::kErfMaclaurin, z));
  const D2 in_table = (ax >= 0.5) & (ax < 4.0) ? ax : 0.5 - D2{};
  const I2 j = __builtin_convertvector((in_table - 0.5) * 2, I2);
  const D2 t = in_table - (0.75 + 0.5 * __builtin_convertvector(j, D2));
  const D2 poly = two_chain_poly_by<kErfTaylorTerms>(
      [&j](size_t i) { return D2{tables::kErfTaylor[j[0]][i], tables::kErfTaylor[j[1]][i]}; }, t);
  const D2 centre_hi = {tables::kErfCentreValue[j[0]].hi, tables::kErfCentreValue[j[1]].hi};
  const D2 centre_lo = {tables::kErfCentreValue[j[0]].lo, tables::kErfCentreValue[j[1]].lo};
  const D2 tabled = centre_hi + (centre_lo + t * poly);
  const D2 v = ax >= 4.0 ? 1.0 - D2{} : ax < 0.5 ? near_zero : tabled;
  const D2 signed_v = xd < 0 ? -v : v;
  for (int l = 0; l < 2; ++l) y[l] = x[l] != x[l] ? x[l] + x[l] : static_cast<float>(signed_v[l]);
}

template <void (*Lanes)(const float*, float*), float (*Scalar)(float)>
void map_lanes(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 2 <= n; i += 2) Lanes(x + i, y + i);
  for (; i < n; ++i) y[i] = Scalar(x[i]);
}

}  // namespace

void exp_f32_n(const float* x, float* y, int64_t n) { map_lanes<exp_lanes, exp_f32>(x, y, n); }
void erf_f32_n(const float* x, float* y, int64_t n) { map_lanes<erf_lanes, erf_f32>(x, y, n); }

}  // namespace twinrt::math
