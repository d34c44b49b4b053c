// Matrix-product micro-kernels: C = alpha * A·B + beta * C on plain pointers.
//
// Every output element is one dot product over k = 0, 1, ..., K-1 in that order, held in
// an accumulator of type Acc and rounded to T once at the end, so a result depends only
// on the inputs and the accumulator type — never on tiling or on which thread ran it.
// An op picks one of the named kernels below when its kernel is created (a later SIMD
// kernel with the same signature slots in there) and splits a large product into
// row/column blocks that it hands to different threads.
#pragma once

#include <cstdint>

namespace twinrt::kernels {

template <class T>
struct GemmProblem {
  int64_t m = 0, n = 0, k = 0;
  // A[i][p] is a[i * a_row_stride + p * a_col_stride]: a transposed A costs nothing.
  const T* a = nullptr;
  int64_t a_row_stride = 0, a_col_stride = 1;
  // B is row-major K x N with row stride ldb (column stride 1).
  const T* b = nullptr;
  int64_t ldb = 0;
  // C is row-major M x N with row stride ldc. With beta == 0, C is only written.
  T* c = nullptr;
  int64_t ldc = 0;
  double alpha = 1.0;
  double beta = 0.0;
};

template <class T>
using GemmFn = void (*)(const GemmProblem<T>&);

// Callers that split M into blocks use multiples of this, so the kernels' register
// tiles (6 rows for the float kernels, 4 for the 8-bit ones) stay full.
inline constexpr int64_t kGemmRowMultiple = 12;

// float inputs, float accumulation (Mode::kDefault).
void f32_gemm_ref(const GemmProblem<float>& p);
// float inputs, double accumulation and epilogue, rounded once (Mode::kReference).
void f32_gemm_f64acc_ref(const GemmProblem<float>& p);
void f64_gemm_ref(const GemmProblem<double>& p);
// Integer products wrap around modulo 2^bits like the two's-complement hardware result;
// alpha and beta must be 1 and 0 or 1 (the op checks).
void i32_gemm_ref(const GemmProblem<int32_t>& p);
void i64_gemm_ref(const GemmProblem<int64_t>& p);
void u32_gemm_ref(const GemmProblem<uint32_t>& p);
void u64_gemm_ref(const GemmProblem<uint64_t>& p);

// Restricts a problem to rows [m0, m0+mr) and columns [n0, n0+nr) of C.
template <class T>
GemmProblem<T> gemm_block(const GemmProblem<T>& p, int64_t m0, int64_t mr, int64_t n0, int64_t nr) {
  GemmProblem<T> q = p;
  q.m = mr;
  q.n = nr;
  q.a = p.a + m0 * p.a_row_stride;
  q.b = p.b + n0;
  q.c = p.c + m0 * p.ldc + n0;
  return q;
}

}  // namespace twinrt::kernels
