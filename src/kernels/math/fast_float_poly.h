// The polynomial pieces of fast_float.cc, shared by its scalar functions and the array
// functions of every tier (fast_float_lanes.inc). Internal linkage on purpose: each tier's
// file gets its own copy compiled with its own flags, and no linker can swap one tier's
// copy in for another's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

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

// e^x in double for a float's value x in [-104, 104] (k then has at most 8 bits and
// kLn2Hi 40, so k * kLn2Hi is exact): the one operation sequence behind exp_f32 and
// sigmoid_f32, for a double or a vector of doubles (`pow2` makes 2^k of the same type).
template <class T, class Pow2>
inline T exp_of_float(T x, Pow2 pow2) {
  const T k = round_to_integer(x * tables::kInvLn2);
  const T r = (x - k * tables::kLn2Hi) - k * tables::kLn2Lo;
  return two_chain_poly<12>(kExpTaylor, r) * pow2(k);
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
}  // namespace twinrt::math
