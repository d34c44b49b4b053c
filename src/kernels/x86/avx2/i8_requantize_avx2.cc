// The requantization and quantization loops compiled for AVX2: 32 values at a time with
// intrinsics (GCC's vectorization of the portable loop compared and blended instead of
// max/min, and spilled), the rest through the portable loop (i8_requantize.inc), compiled
// here too. Each lane performs round_to's float and integer operations in its order, so
// the bytes are the portable ones. Also QdqAdd's loop. Used by the AVX2 and VNNI tiles' ops.
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "kernels/gemm/i8_gemm.h"

namespace twinrt::kernels {
namespace {

#include "kernels/portable/i8_requantize.inc"

// round_to's float part on 8 lanes: clamp to +-2^22 (a NaN becomes the low end: max
// returns its second operand when one is NaN, like round_to's select), then round half to
// even by adding and subtracting 1.5 * 2^23; the result is integral, so truncation is exact.
__m256i round_lanes(__m256 f) {
  const __m256 magic = _mm256_set1_ps(12582912.0f);
  f = _mm256_max_ps(f, _mm256_set1_ps(-4194304.0f));
  f = _mm256_min_ps(f, _mm256_set1_ps(4194304.0f));
  return _mm256_cvttps_epi32(_mm256_sub_ps(_mm256_add_ps(f, magic), magic));
}

// Adds the zero point to 32 rounded values and stores them saturated to Q. Values are
// within +-2^23, so saturating to int16 first and then to Q clamps like round_to.
template <class Q>
void store32(const __m256i v[4], int32_t zero_point, Q* out) {
  const __m256i z = _mm256_set1_epi32(zero_point);
  const __m256i w01 = _mm256_packs_epi32(_mm256_add_epi32(v[0], z), _mm256_add_epi32(v[1], z));
  const __m256i w23 = _mm256_packs_epi32(_mm256_add_epi32(v[2], z), _mm256_add_epi32(v[3], z));
  const __m256i bytes = std::is_same_v<Q, uint8_t> ? _mm256_packus_epi16(w01, w23) : _mm256_packs_epi16(w01, w23);
  // The packs worked per 128-bit half: 4-byte groups come out as 0 2 4 6 1 3 5 7.
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_permutevar8x32_epi32(bytes, order));
}

template <class Q>
void requantize_avx2(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier, int64_t multiplier_stride,
                     int32_t zero_point, Q* out) {
  int64_t i = 0;
  // A multiplier per tensor, or one per element (the NHWC convolution's rows, one per channel).
  if (multiplier_stride == 0 || multiplier_stride == 1) {
    const __m256i b = _mm256_set1_epi32(bias);  // wrapping add, like the uint32 sum
    const __m256 m0 = _mm256_set1_ps(multiplier[0]);
    for (; i + 32 <= n; i += 32) {
      __m256i v[4];
#pragma GCC unroll 4
      for (int j = 0; j < 4; ++j) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + i + 8 * j));
        const __m256 m = multiplier_stride == 0 ? m0 : _mm256_loadu_ps(multiplier + i + 8 * j);
        v[j] = round_lanes(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(a, b)), m));
      }
      store32(v, zero_point, out + i);
    }
  }
  requantize(acc + i, n - i, bias, multiplier + i * multiplier_stride, multiplier_stride, zero_point, out + i);
}

template <class Q>
void quantize_avx2(const float* x, int64_t n, float scale, int32_t zero_point, Q* out) {
  const __m256 s = _mm256_set1_ps(scale);
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i v[4];
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) v[j] = round_lanes(_mm256_div_ps(_mm256_loadu_ps(x + i + 8 * j), s));
    store32(v, zero_point, out + i);
  }
  quantize(x + i, n - i, scale, zero_point, out + i);
}

// QdqAdd's parameters as vectors, held in registers for the whole loop (read through the
// reference, they were reloaded after every store: the output could alias them).
struct QdqAddLanes {
  explicit QdqAddLanes(const QdqAddParams& p)
      : a_zero(_mm256_set1_epi32(p.a_zero)), b_zero(_mm256_set1_epi32(p.b_zero)), a_scale(_mm256_set1_ps(p.a_scale)),
        b_scale(_mm256_set1_ps(p.b_scale)), y_scale(_mm256_set1_ps(p.y_scale)), y_inverse(_mm256_set1_ps(1.0f / p.y_scale)) {}
  __m256i a_zero, b_zero;
  __m256 a_scale, b_scale, y_scale, y_inverse;
};

// QdqAdd's float value of 8 uint8 pairs at a and b (8 bytes each), Relu included.
template <bool Relu>
__m256 qdq_sum8(const uint8_t* a, const uint8_t* b, const QdqAddLanes& p) {
  const auto dequantize = [](const uint8_t* x, __m256i zero, __m256 scale) {
    const __m256i v = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(x)));
    return _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(v, zero)), scale);
  };
  const __m256 sum = _mm256_add_ps(dequantize(a, p.a_zero, p.a_scale), dequantize(b, p.b_zero, p.b_scale));
  // max(0, x) is x < 0 ? 0 : x exactly: maxps returns its second operand for a NaN and for
  // two zeros, so NaN and -0 are kept.
  return Relu ? _mm256_max_ps(_mm256_setzero_ps(), sum) : sum;
}

// s / y_scale; Inverse: Markstein's corrected product with the reciprocal instead of the
// division (i8_qdq_add_avx512.cc), for nodes where qdq_add_by_inverse_is_exact holds.
template <bool Inverse>
__m256 divide(__m256 s, const QdqAddLanes& p) {
  if (!Inverse) return _mm256_div_ps(s, p.y_scale);
  const __m256 q = _mm256_mul_ps(s, p.y_inverse);
  return _mm256_fmadd_ps(_mm256_fnmadd_ps(q, p.y_scale, s), p.y_inverse, q);
}

// Compiled with -ffp-contract=off (CMakeLists.txt): a fused multiply-add of one product
// into the sum would round differently from the separate nodes.
template <bool Relu, bool Inverse>
void qdq_add_lanes(const uint8_t* a, const uint8_t* b, int64_t n, const QdqAddParams& params, uint8_t* y) {
  const QdqAddLanes p(params);
  const int32_t y_zero = params.y_zero;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i v[4];
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) v[j] = round_lanes(divide<Inverse>(qdq_sum8<Relu>(a + i + 8 * j, b + i + 8 * j, p), p));
    store32(v, y_zero, y + i);
  }
  qdq_add(a + i, b + i, n - i, params, y + i);
}

template <bool Inverse>
void qdq_add_by(const uint8_t* a, const uint8_t* b, int64_t n, const QdqAddParams& p, uint8_t* y) {
  if (p.relu) qdq_add_lanes<true, Inverse>(a, b, n, p, y);
  else qdq_add_lanes<false, Inverse>(a, b, n, p, y);
}

}  // namespace

void qdq_add_u8__avx2(const uint8_t* a, const uint8_t* b, int64_t n, const QdqAddParams& p, uint8_t* y) {
  qdq_add_by<false>(a, b, n, p, y);
}
void qdq_add_u8_by_inverse__avx2(const uint8_t* a, const uint8_t* b, int64_t n, const QdqAddParams& p, uint8_t* y) {
  qdq_add_by<true>(a, b, n, p, y);
}

void requantize_u8__avx2(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier, int64_t multiplier_stride,
                         int32_t zero_point, uint8_t* out) {
  requantize_avx2(acc, n, bias, multiplier, multiplier_stride, zero_point, out);
}
void requantize_s8__avx2(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier, int64_t multiplier_stride,
                         int32_t zero_point, int8_t* out) {
  requantize_avx2(acc, n, bias, multiplier, multiplier_stride, zero_point, out);
}
void quantize_u8__avx2(const float* x, int64_t n, float scale, int32_t zero_point, uint8_t* out) {
  quantize_avx2(x, n, scale, zero_point, out);
}
void quantize_s8__avx2(const float* x, int64_t n, float scale, int32_t zero_point, int8_t* out) {
  quantize_avx2(x, n, scale, zero_point, out);
}

}  // namespace twinrt::kernels
