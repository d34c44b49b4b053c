#include <gtest/gtest.h>

#include <vector>

#include "kernels/ref/gemm_ref.h"

namespace twinrt::kernels {
namespace {

// Small integers: every product and partial sum is exact in float, so each kernel must
// match the textbook triple loop bit for bit whatever its tiling.
std::vector<float> ramp(int64_t n, int mod, int offset) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>((i * 7 + offset) % mod - mod / 2);
  return v;
}

void check_against_loops(GemmFn<float> fn, int64_t m, int64_t n, int64_t k, bool trans_a, float alpha, float beta) {
  auto a = ramp(m * k, 11, 3), b = ramp(k * n, 13, 5), c = ramp(m * n, 5, 1);
  std::vector<float> want(c);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += double(a[trans_a ? p * m + i : i * k + p]) * b[p * n + j];
      want[i * n + j] = static_cast<float>(alpha * s + (beta != 0 ? beta * c[i * n + j] : 0.0));
    }
  GemmProblem<float> pr;
  pr.m = m; pr.n = n; pr.k = k;
  pr.a = a.data(); pr.a_row_stride = trans_a ? 1 : k; pr.a_col_stride = trans_a ? m : 1;
  pr.b = b.data(); pr.ldb = n;
  pr.c = c.data(); pr.ldc = n;
  pr.alpha = alpha; pr.beta = beta;
  fn(pr);
  EXPECT_EQ(c, want) << "m=" << m << " n=" << n << " k=" << k << " transA=" << trans_a;
}

TEST(KernelsGemm, MatchesLoopsAroundTileSizes) {
  for (GemmFn<float> fn : {f32_gemm_ref, f32_gemm_f64acc_ref})
    for (int64_t m : {1, 3, 5, 6, 7, 13})
      for (int64_t n : {1, 7, 8, 9, 17})
        for (int64_t k : {0, 1, 6})
          for (bool t : {false, true}) check_against_loops(fn, m, n, k, t, t ? 2.0f : 1.0f, t ? 0.5f : 0.0f);
}

TEST(KernelsGemm, ReferenceAccumulatesInDoubleAndRoundsOnce) {
  const float a[3] = {1e8f, 1.0f, -1e8f}, b[3] = {1.0f, 1.0f, 1.0f};
  float c = 0;
  GemmProblem<float> p;
  p.m = 1; p.n = 1; p.k = 3; p.a = a; p.a_row_stride = 3; p.b = b; p.ldb = 1; p.c = &c; p.ldc = 1;
  f32_gemm_ref(p);
  EXPECT_EQ(c, 0.0f);  // 1e8 + 1 rounds back to 1e8 in float
  f32_gemm_f64acc_ref(p);
  EXPECT_EQ(c, 1.0f);
}

TEST(KernelsGemm, IntegersWrapLikeHardware) {
  const int32_t a[2] = {65536, 3}, b[2] = {65536, -2};
  int32_t c = 7;
  GemmProblem<int32_t> p;
  p.m = 1; p.n = 1; p.k = 2; p.a = a; p.a_row_stride = 2; p.b = b; p.ldb = 1; p.c = &c; p.ldc = 1;
  p.beta = 1;
  i32_gemm_ref(p);
  EXPECT_EQ(c, 1);  // 2^32 wraps to 0, then -6 + 7
}

TEST(KernelsGemm, BlockCoversSubmatrix) {
  std::vector<double> a = {1, 2, 3, 4, 5, 6}, b = {1, 0, 0, 1}, c(6, 0);
  GemmProblem<double> p;
  p.m = 3; p.n = 2; p.k = 2; p.a = a.data(); p.a_row_stride = 2; p.b = b.data(); p.ldb = 2; p.c = c.data(); p.ldc = 2;
  f64_gemm_ref(gemm_block(p, 1, 2, 1, 1));
  EXPECT_EQ(c, (std::vector<double>{0, 0, 0, 4, 0, 6}));
}

}  // namespace
}  // namespace twinrt::kernels
