#include "kernels/ref/qgemm_ref.h"

#include <algorithm>

namespace twinrt::kernels {
namespace {

constexpr int kCols = 8;

// Sums in uint32 so overflow wraps (defined behaviour) exactly as int32 hardware does.
template <class TA, class TB, int Rows>
void qgemm_tile(const QGemmProblem<TA, TB>& p, int64_t m0, int64_t n0, int cols) {
  uint32_t acc[Rows][kCols] = {};
  int32_t za[Rows], zb[kCols] = {};
  for (int r = 0; r < Rows; ++r) za[r] = p.a_zero ? p.a_zero[(m0 + r) * p.a_zero_stride] : 0;
  for (int j = 0; j < cols; ++j) zb[j] = p.b_zero ? p.b_zero[(n0 + j) * p.b_zero_stride] : 0;
  for (int64_t k = 0; k < p.k; ++k) {
    const TB* brow = p.b + k * p.ldb + n0;
    int32_t b[kCols] = {};
    for (int j = 0; j < cols; ++j) b[j] = int32_t{brow[j]} - zb[j];
    for (int r = 0; r < Rows; ++r) {
      const int32_t a = int32_t{p.a[(m0 + r) * p.lda + k]} - za[r];
      for (int j = 0; j < kCols; ++j) acc[r][j] += static_cast<uint32_t>(a * b[j]);
    }
  }
  for (int r = 0; r < Rows; ++r)
    for (int j = 0; j < cols; ++j) p.c[(m0 + r) * p.ldc + n0 + j] = static_cast<int32_t>(acc[r][j]);
}

template <class TA, class TB>
void qgemm_ref(const QGemmProblem<TA, TB>& p) {
  constexpr int kRows = 4;
  for (int64_t n0 = 0; n0 < p.n; n0 += kCols) {
    const int cols = static_cast<int>(std::min<int64_t>(kCols, p.n - n0));
    int64_t m0 = 0;
    for (; m0 + kRows <= p.m; m0 += kRows) qgemm_tile<TA, TB, kRows>(p, m0, n0, cols);
    for (; m0 < p.m; ++m0) qgemm_tile<TA, TB, 1>(p, m0, n0, cols);
  }
}

}  // namespace

void u8u8_gemm_i32_ref(const QGemmProblem<uint8_t, uint8_t>& p) { qgemm_ref(p); }
void u8s8_gemm_i32_ref(const QGemmProblem<uint8_t, int8_t>& p) { qgemm_ref(p); }
void s8u8_gemm_i32_ref(const QGemmProblem<int8_t, uint8_t>& p) { qgemm_ref(p); }
void s8s8_gemm_i32_ref(const QGemmProblem<int8_t, int8_t>& p) { qgemm_ref(p); }

}  // namespace twinrt::kernels
