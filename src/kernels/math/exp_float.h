// Default mode's exp and sigmoid: computed in float arithmetic (the same reduction and polynomial that
// erf_float.h uses for its e^(-x^2)), a few times cheaper than exp_f32's double polynomial.
// One sequence of IEEE float operations, never contracted (only exact objects include this),
// so every tier and WebAssembly give the same bits; tests/unit/math_fast_float_test.cc
// measures its error against glibc's long double exp.
//
//   e^t = 2^k e^r,  k = round(t / ln2),  r = t - k ln2 (ln2 in two parts),
//   e^r by its Taylor polynomial of degree 7 (|r| <= ln2 / 2: truncation below 2^-27),
//   its upper terms evaluated by Estrin's scheme.
// Internal linkage on purpose, as in fast_float_poly.h: each tier compiles its own copy.
#pragma once

#include <cstdint>

#if defined(__AVX__)
#include <immintrin.h>
#endif

namespace twinrt::math {
namespace {

namespace exp_float_detail {
constexpr float kInvLn2 = 0x1.715476p+0f;
// kLn2Hi has 14 significant bits, so k kLn2Hi is exact for every |k| < 2^10.
constexpr float kLn2Hi = 0x1.62e4p-1f;
constexpr float kLn2Lo = 0x1.7f7d1cp-20f;
// Rounds to an integer (ties to even) for |t| < 2^22: adding 1.5 * 2^23 leaves no fraction bits.
constexpr float kRoundShift = 0x1.8p23f;
constexpr float kTaylor[] = {1.0f, 1.0f, 1.0f / 2, 1.0f / 6, 1.0f / 24, 1.0f / 120, 1.0f / 720, 1.0f / 5040};
// exp's arguments are clamped to [kLowest, kHighest]: e^kHighest overflows to +inf and
// e^kLowest rounds to +0, like everything beyond; 2^k then stays within [2^-150, 2^129].
constexpr float kLowest = -104.0f;
constexpr float kHighest = 89.0f;

// c[0] + c[1] t + ... + c[N-1] t^(N-1)
template <int N, class V>
inline V horner(const float* c, V t) {
  V r = c[N - 1] - V{};
#pragma GCC unroll 16  // -O2 keeps the loop otherwise: a broadcast load and a branch per step
  for (int i = N - 2; i >= 0; --i) r = r * t + c[i];
  return r;
}

// 2^k for integral k in [-126, 127], from the exponent bits.
template <class V, class I>
inline V pow2(I k) {
  return (V)((k + 127) << 23);
}

// p rounded to an integer, ties to even, for |p| < 2^22: one instruction where the tier has
// one (vrndscaleps, vroundps), else adding 1.5 * 2^23, which leaves no fraction bits, and
// subtracting it again. Both give the same bits.
template <class V>
inline V round_half_even(V p) {
#if defined(__AVX512F__)
  if constexpr (sizeof(V) == 64) return (V)_mm512_roundscale_ps((__m512)p, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
#endif
#if defined(__AVX__)
  if constexpr (sizeof(V) == 32) return (V)_mm256_round_ps((__m256)p, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
#endif
  return (p + kRoundShift) - kRoundShift;
}

// er * 2^k rounded once, for er in [0.5, 2] and integral k in [-150, 128]: vscalefps where
// the tier has it; elsewhere 2^k as two normal factors, so that results below 2^-126 (and
// 2^128) round once, at the second product. Both give the correctly rounded product, so the
// same bits; on AVX-512 the one instruction replaced eight, and with round_half_even the
// sigmoid (EfficientNet-B0's SiLU) took 0.32 ns a float instead of 0.41.
template <class V, class I>
inline V scale_by_pow2(V er, V k) {
#if defined(__AVX512F__)
  if constexpr (sizeof(V) == 64) return (V)_mm512_scalef_ps((__m512)er, (__m512)k);
#endif
  const I ki = __builtin_convertvector(k, I);
  const I k1 = ki >> 1;
  return (er * pow2<V, I>(k1)) * pow2<V, I>(ki - k1);
}
}  // namespace exp_float_detail

// e^t = 2^k * er: the reduction's k and e^r (k as floats).
template <class V>
struct ExpParts {
  V k, er;
};
template <class V>
inline ExpParts<V> exp_parts(V t) {
  using namespace exp_float_detail;
  const V k = round_half_even(t * kInvLn2);
  const V r = (t - k * kLn2Hi) - k * kLn2Lo;
  // 1 + (r + r^2 (1/2 + r q(r))) with q's five terms by Estrin's scheme: two thirds of
  // Horner's chain of dependent operations, which was what the loops waited on (four
  // vectors' chains in flight filled the out-of-order window), and the last steps as in
  // Horner's, whose rounding errors shrink with r (Estrin's final sums cost 0.2 ulp more).
  const V r2 = r * r;
  const V q = (kTaylor[3] + kTaylor[4] * r) + r2 * ((kTaylor[5] + kTaylor[6] * r) + r2 * kTaylor[7]);
  return {k, kTaylor[0] + (r + r2 * (kTaylor[2] + r * q))};
}

// V: a vector of floats (GCC/Clang vector extension), I: the vector of int32 of its size.
template <class V, class I>
inline V exp_in_float_lanes(V x) {
  using namespace exp_float_detail;
  const V t = x < kLowest ? kLowest - V{} : x > kHighest ? kHighest - V{} : x;
  const ExpParts<V> p = exp_parts(t);
  const V v = scale_by_pow2<V, I>(p.er, p.k);
  return x != x ? x + x : v;  // NaN stays NaN (the clamp would lose it)
}

// Default mode's sigmoid from the exp above: with e = e^-|x| (never overflows),
// 1 / (1 + e) for x >= 0 and e / (1 + e) for x < 0, where 1 / (1 + e^-x) would lose the
// subnormal results below x = -87 to an infinite e^-x. exp_in_float_lanes's steps, less the
// ones that cannot change e^-|x| (the upper clamp; NaN, which the last select handles): the
// sigmoid is most of EfficientNet's time (SiLU).
template <class V, class I>
inline V sigmoid_in_float_lanes(V x) {
  using namespace exp_float_detail;
  const V minus_abs = (V)((I)x | static_cast<int32_t>(0x80000000u));
  const V t = minus_abs > kLowest ? minus_abs : kLowest - V{};  // one max instruction
  const ExpParts<V> p = exp_parts(t);
  const V e = scale_by_pow2<V, I>(p.er, p.k);
  const V v = (x < 0.0f ? e : 1.0f - V{}) / (1.0f + e);
  return x != x ? x + x : v;
}

}  // namespace
}  // namespace twinrt::math
