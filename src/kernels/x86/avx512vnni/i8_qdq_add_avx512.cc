// QdqAdd's loop with 512-bit vectors (AVX-512F/BW), for the VNNI tier: 64 values a step,
// each lane performing the AVX2 loop's float operations in its order (the separate nodes'
// dequantize, add, Relu, divide and round), so the bytes are the same; the rest of a row
// goes to the AVX2 loop. Compiled with -ffp-contract=off (CMakeLists.txt), like that loop.
#include <immintrin.h>

#include "kernels/gemm/i8_gemm.h"
#include "kernels/x86/avx512vnni/u8_store_64.h"

namespace twinrt::kernels {

void qdq_add_u8__avx2(const uint8_t* a, const uint8_t* b, int64_t n, const QdqAddParams& p, uint8_t* y);

namespace {

// Inverse: the quotient sum / y_scale as Markstein's corrected product with the reciprocal
// (q = s * r, then q + (s - q * y_scale) * r, both steps fused): the correctly rounded
// quotient wherever the theorem's conditions hold, which qdq_add_by_inverse_is_exact checks
// per node over every input.
template <bool Relu, bool Inverse>
int64_t qdq_add_64(const uint8_t* a, const uint8_t* b, int64_t n, const QdqAddParams& params, uint8_t* y) {
  const __m512i a_zero = _mm512_set1_epi32(params.a_zero), b_zero = _mm512_set1_epi32(params.b_zero);
  const __m512i y_zero = _mm512_set1_epi32(params.y_zero);
  const __m512 a_scale = _mm512_set1_ps(params.a_scale), b_scale = _mm512_set1_ps(params.b_scale);
  const __m512 y_scale = _mm512_set1_ps(params.y_scale), y_inverse = _mm512_set1_ps(1.0f / params.y_scale);
  const __m512 lo = _mm512_set1_ps(-4194304.0f), hi = _mm512_set1_ps(4194304.0f);
  const auto dequantize = [](const uint8_t* x, __m512i zero, __m512 scale) {
    const __m512i v = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x)));
    return _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(v, zero)), scale);
  };
  const auto divide = [&](__m512 s) {
    if (!Inverse) return _mm512_div_ps(s, y_scale);
    const __m512 q = _mm512_mul_ps(s, y_inverse);
    return _mm512_fmadd_ps(_mm512_fnmadd_ps(q, y_scale, s), y_inverse, q);
  };
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m512i q[4];
#pragma GCC unroll 4  // else q lives on the stack: a 64-byte store and reload per vector
    for (int j = 0; j < 4; ++j) {
      __m512 f = _mm512_add_ps(dequantize(a + i + 16 * j, a_zero, a_scale), dequantize(b + i + 16 * j, b_zero, b_scale));
      if (Relu) f = _mm512_max_ps(_mm512_setzero_ps(), f);  // x < 0 ? 0 : x, NaN and -0 kept
      f = _mm512_min_ps(_mm512_max_ps(divide(f), lo), hi);  // NaN to the low end
      // Within +-2^22, vcvtps2dq's rounding (half to even, the default mode) is round_to's
      // add and subtract of 1.5 * 2^23.
      q[j] = _mm512_add_epi32(_mm512_cvtps_epi32(f), y_zero);
    }
    store_u8_64(y + i, q[0], q[1], q[2], q[3]);
  }
  return i;
}

template <bool Inverse>
void qdq_add(const uint8_t* a, const uint8_t* b, int64_t n, const QdqAddParams& p, uint8_t* y) {
  const int64_t done = p.relu ? qdq_add_64<true, Inverse>(a, b, n, p, y) : qdq_add_64<false, Inverse>(a, b, n, p, y);
  qdq_add_u8__avx2(a + done, b + done, n - done, p, y + done);
}

}  // namespace

void qdq_add_u8__avx512(const uint8_t* a, const uint8_t* b, int64_t n, const QdqAddParams& p, uint8_t* y) {
  qdq_add<false>(a, b, n, p, y);
}
void qdq_add_u8_by_inverse__avx512(const uint8_t* a, const uint8_t* b, int64_t n, const QdqAddParams& p, uint8_t* y) {
  qdq_add<true>(a, b, n, p, y);
}

}  // namespace twinrt::kernels
