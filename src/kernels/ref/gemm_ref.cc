#include "kernels/ref/gemm_ref.h"

#include <algorithm>
#include <type_traits>

namespace twinrt::kernels {
namespace {

// Register tile: kRows rows of A times kCols columns of B. The inner loops have
// compile-time trip counts so the compiler can keep the tile in vector registers;
// each lane still sums its own dot product in k order.
constexpr int kCols = 8;

template <class T, class Acc>
Acc widen(T v) {
  if constexpr (std::is_integral_v<T>) return static_cast<Acc>(static_cast<std::make_unsigned_t<T>>(v));
  else return static_cast<Acc>(v);
}

template <class T, class Acc>
T epilogue(Acc acc, double alpha, double beta, const T* c) {
  if constexpr (std::is_integral_v<T>) {
    (void)alpha;  // integer kernels require alpha == 1 (checked by the op)
    if (beta != 0) acc += widen<T, Acc>(*c);
    return static_cast<T>(acc);
  } else {
    Acc v = alpha == 1.0 ? acc : static_cast<Acc>(alpha) * acc;
    if (beta != 0) v += static_cast<Acc>(beta) * static_cast<Acc>(*c);
    return static_cast<T>(v);
  }
}

// The compile-time trip counts (unrolled) let the compiler keep the Rows x kCols tile
// in vector registers; each lane still sums its own dot product in k order.
template <class T, class Acc, int Rows, bool kFullCols>
void gemm_tile(const GemmProblem<T>& p, int64_t m0, int64_t n0, int cols) {
  Acc acc[Rows][kCols] = {};
  const T* a_rows[Rows];
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) a_rows[r] = p.a + (m0 + r) * p.a_row_stride;
  const T* brow = p.b + n0;
  for (int64_t k = 0; k < p.k; ++k, brow += p.ldb) {
    Acc b[kCols] = {};
    if constexpr (kFullCols) {
#pragma GCC unroll 16
      for (int j = 0; j < kCols; ++j) b[j] = widen<T, Acc>(brow[j]);
    } else {
      for (int j = 0; j < cols; ++j) b[j] = widen<T, Acc>(brow[j]);
    }
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      const Acc a = widen<T, Acc>(a_rows[r][k * p.a_col_stride]);
#pragma GCC unroll 16
      for (int j = 0; j < kCols; ++j) acc[r][j] += a * b[j];
    }
  }
  for (int r = 0; r < Rows; ++r) {
    T* crow = p.c + (m0 + r) * p.ldc + n0;
    for (int j = 0; j < cols; ++j) crow[j] = epilogue<T, Acc>(acc[r][j], p.alpha, p.beta, crow + j);
  }
}

template <class T, class Acc, int Rows>
void gemm_tile(const GemmProblem<T>& p, int64_t m0, int64_t n0, int cols) {
  if (cols == kCols) gemm_tile<T, Acc, Rows, true>(p, m0, n0, cols);
  else gemm_tile<T, Acc, Rows, false>(p, m0, n0, cols);
}

// Rows of A are taken in blocks that stay in cache while every column panel of B streams
// past them; blocking never splits a dot product, so it does not change any result.
template <class T, class Acc>
void gemm(const GemmProblem<T>& p) {
  constexpr int kRows = 6;
  constexpr int64_t kBlockElems = 32 * 1024;
  const int64_t block = std::max<int64_t>(kRows, kBlockElems / std::max<int64_t>(p.k, 1) / kRows * kRows);
  for (int64_t mb = 0; mb < p.m; mb += block) {
    const int64_t m_end = std::min(p.m, mb + block);
    for (int64_t n0 = 0; n0 < p.n; n0 += kCols) {
      const int cols = static_cast<int>(std::min<int64_t>(kCols, p.n - n0));
      int64_t m0 = mb;
      for (; m0 + kRows <= m_end; m0 += kRows) gemm_tile<T, Acc, kRows>(p, m0, n0, cols);
      for (; m0 < m_end; ++m0) gemm_tile<T, Acc, 1>(p, m0, n0, cols);
    }
  }
}

}  // namespace

void f32_gemm_ref(const GemmProblem<float>& p) { gemm<float, float>(p); }
void f32_gemm_f64acc_ref(const GemmProblem<float>& p) { gemm<float, double>(p); }
void f64_gemm_ref(const GemmProblem<double>& p) { gemm<double, double>(p); }
void i32_gemm_ref(const GemmProblem<int32_t>& p) { gemm<int32_t, uint32_t>(p); }
void i64_gemm_ref(const GemmProblem<int64_t>& p) { gemm<int64_t, uint64_t>(p); }
void u32_gemm_ref(const GemmProblem<uint32_t>& p) { gemm<uint32_t, uint32_t>(p); }
void u64_gemm_ref(const GemmProblem<uint64_t>& p) { gemm<uint64_t, uint64_t>(p); }

}  // namespace twinrt::kernels
