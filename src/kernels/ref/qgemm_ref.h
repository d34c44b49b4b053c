// 8-bit integer matrix products with zero points: C[i][j] = sum_k (A[i][k] - za[i]) *
// (B[k][j] - zb[j]) in int32 (wrapping like the hardware), the core of MatMulInteger,
// ConvInteger, QLinearMatMul and QLinearConv.
#pragma once

#include <cstdint>

namespace twinrt::kernels {

template <class TA, class TB>
struct QGemmProblem {
  int64_t m = 0, n = 0, k = 0;
  const TA* a = nullptr;  // row-major M x K, row stride lda
  int64_t lda = 0;
  const TB* b = nullptr;  // row-major K x N, row stride ldb
  int64_t ldb = 0;
  int32_t* c = nullptr;   // row-major M x N, row stride ldc (written, not accumulated)
  int64_t ldc = 0;
  // Zero point of row i is a_zero[i * a_zero_stride] (stride 0: one for all rows);
  // of column j, b_zero[j * b_zero_stride].
  const int32_t* a_zero = nullptr;
  int64_t a_zero_stride = 0;
  const int32_t* b_zero = nullptr;
  int64_t b_zero_stride = 0;
};

void u8u8_gemm_i32_ref(const QGemmProblem<uint8_t, uint8_t>& p);
void u8s8_gemm_i32_ref(const QGemmProblem<uint8_t, int8_t>& p);
void s8u8_gemm_i32_ref(const QGemmProblem<int8_t, uint8_t>& p);
void s8s8_gemm_i32_ref(const QGemmProblem<int8_t, int8_t>& p);

inline void qgemm(const QGemmProblem<uint8_t, uint8_t>& p) { u8u8_gemm_i32_ref(p); }
inline void qgemm(const QGemmProblem<uint8_t, int8_t>& p) { u8s8_gemm_i32_ref(p); }
inline void qgemm(const QGemmProblem<int8_t, uint8_t>& p) { s8u8_gemm_i32_ref(p); }
inline void qgemm(const QGemmProblem<int8_t, int8_t>& p) { s8s8_gemm_i32_ref(p); }

}  // namespace twinrt::kernels
