#include "kernels/math/fast_float.h"

#include <cstdint>
#include <cstring>
#include <limits>

#include "kernels/math/fast_float_poly.h"
#include "kernels/math/tables.h"

#if defined(__x86_64__) || defined(_M_X64)
#define TWINRT_X86 1
#endif

namespace twinrt::math {
namespace {

double pow2_of(double k) { return pow2(static_cast<int64_t>(k)); }

}  // namespace

float exp_f32(float x) {
  if (x != x) return x + x;
  if (x > 89.0f) return std::numeric_limits<float>::infinity();  // e^88.73 > FLT_MAX already
  if (x < -104.0f) return 0.0f;                                    // e^-104 < 2^-150: rounds to 0
  // One rounding to float, also into the subnormal range and to infinity.
  return static_cast<float>(exp_of_float(static_cast<double>(x), pow2_of));
}

float sigmoid_f32(float x) {
  if (x != x) return x + x;
  if (x > 89.0f) return 1.0f;     // 1 / (1 + e^-89) is within 2^-128 of 1
  if (x < -104.0f) return 0.0f;   // below e^-104 < 2^-150: rounds to 0
  return static_cast<float>(1.0 / (1.0 + exp_of_float(-static_cast<double>(x), pow2_of)));
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


// Defined per tier: fast_float_lanes.inc, included below for the portable tier and by the
// ISA folders.
void exp_f32_n__scalar(const float*, float*, int64_t);
void erf_f32_n__scalar(const float*, float*, int64_t);
void sigmoid_f32_n__scalar(const float*, float*, int64_t);
void erf_in_float_n__scalar(const float*, float*, int64_t);
void exp_in_float_n__scalar(const float*, float*, int64_t);
void sigmoid_in_float_n__scalar(const float*, float*, int64_t);
void silu_f32_n__scalar(const float*, float*, int64_t);
void silu_in_float_n__scalar(const float*, float*, int64_t);
#ifdef TWINRT_X86
void exp_f32_n__avx2(const float*, float*, int64_t);
void erf_f32_n__avx2(const float*, float*, int64_t);
void sigmoid_f32_n__avx2(const float*, float*, int64_t);
void erf_in_float_n__avx2(const float*, float*, int64_t);
void exp_in_float_n__avx2(const float*, float*, int64_t);
void sigmoid_in_float_n__avx2(const float*, float*, int64_t);
void silu_f32_n__avx2(const float*, float*, int64_t);
void silu_in_float_n__avx2(const float*, float*, int64_t);
void exp_f32_n__avx512(const float*, float*, int64_t);
void erf_f32_n__avx512(const float*, float*, int64_t);
void sigmoid_f32_n__avx512(const float*, float*, int64_t);
void erf_in_float_n__avx512(const float*, float*, int64_t);
void exp_in_float_n__avx512(const float*, float*, int64_t);
void sigmoid_in_float_n__avx512(const float*, float*, int64_t);
void silu_f32_n__avx512(const float*, float*, int64_t);
void silu_in_float_n__avx512(const float*, float*, int64_t);
#endif

namespace {

struct TierArrays {
  F32ArrayFn exp, erf, sigmoid, erf_in_float, exp_in_float, sigmoid_in_float, silu, silu_in_float;
};

TierArrays tier_arrays(Isa isa) {
#ifdef TWINRT_X86
  if (isa == Isa::kAvx512) return {exp_f32_n__avx512, erf_f32_n__avx512, sigmoid_f32_n__avx512, erf_in_float_n__avx512, exp_in_float_n__avx512,
            sigmoid_in_float_n__avx512, silu_f32_n__avx512, silu_in_float_n__avx512};
  if (isa == Isa::kAvx2) return {exp_f32_n__avx2, erf_f32_n__avx2, sigmoid_f32_n__avx2, erf_in_float_n__avx2, exp_in_float_n__avx2,
            sigmoid_in_float_n__avx2, silu_f32_n__avx2, silu_in_float_n__avx2};
#else
  (void)isa;
#endif
  return {exp_f32_n__scalar, erf_f32_n__scalar, sigmoid_f32_n__scalar, erf_in_float_n__scalar, exp_in_float_n__scalar,
            sigmoid_in_float_n__scalar, silu_f32_n__scalar, silu_in_float_n__scalar};
}

}  // namespace

F32ArrayFn exp_f32_n_kernel(Isa isa) { return tier_arrays(isa).exp; }
F32ArrayFn erf_f32_n_kernel(Isa isa) { return tier_arrays(isa).erf; }
F32ArrayFn sigmoid_f32_n_kernel(Isa isa) { return tier_arrays(isa).sigmoid; }
F32ArrayFn erf_in_float_n_kernel(Isa isa) { return tier_arrays(isa).erf_in_float; }
F32ArrayFn exp_in_float_n_kernel(Isa isa) { return tier_arrays(isa).exp_in_float; }
F32ArrayFn sigmoid_in_float_n_kernel(Isa isa) { return tier_arrays(isa).sigmoid_in_float; }
F32ArrayFn silu_f32_n_kernel(Isa isa) { return tier_arrays(isa).silu; }
F32ArrayFn silu_in_float_n_kernel(Isa isa) { return tier_arrays(isa).silu_in_float; }

float erf_in_float(float x) {
  float y;
  erf_in_float_n__scalar(&x, &y, 1);
  return y;
}

float exp_in_float(float x) {
  float y;
  exp_in_float_n__scalar(&x, &y, 1);
  return y;
}

float sigmoid_in_float(float x) {
  float y;
  sigmoid_in_float_n__scalar(&x, &y, 1);
  return y;
}

}  // namespace twinrt::math

// The portable tier's array functions: two doubles per vector (SSE2 natively, SIMD128 in the
// WebAssembly SIMD builds).
#define TWINRT_LANES_NS scalar_lanes
#define TWINRT_LANES 2
#define TWINRT_EXP_FN exp_f32_n__scalar
#define TWINRT_ERF_FN erf_f32_n__scalar
#define TWINRT_SIGMOID_FN sigmoid_f32_n__scalar
#define TWINRT_ERF_IN_FLOAT_FN erf_in_float_n__scalar
#define TWINRT_EXP_IN_FLOAT_FN exp_in_float_n__scalar
#define TWINRT_SIGMOID_IN_FLOAT_FN sigmoid_in_float_n__scalar
#define TWINRT_SILU_FN silu_f32_n__scalar
#define TWINRT_SILU_IN_FLOAT_FN silu_in_float_n__scalar
#include "kernels/math/fast_float_lanes.inc"
