// The tile kernels of every ISA tier this CPU runs, through the driver, against a
// scalar spec written here: exact kernels must match it bit for bit (random floats, so
// rounding order matters), fma kernels within float tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/cpu/isa.h"
#include "ops/nn/f32_gemm_driver.h"

namespace twinrt::nn {
namespace {

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

struct Case {
  int64_t m, n, k;
  bool trans_a = false;
  float alpha = 1.0f;
  int bias = 0;  // 0: none, 1: per row, 2: per column, 3: full matrix
  bool residual = false;  // adds the bias data again, as a full matrix (a fused Add)
  bool clamp = false;
};

// The spec of kernels/gemm/f32_gemm.h: k-order float sums from +0, then the epilogue.
std::vector<float> spec(const Case& c, const std::vector<float>& a, const std::vector<float>& b,
                        const std::vector<float>& bias, int64_t ldc) {
  std::vector<float> out(static_cast<size_t>(c.m * ldc), -7.0f);
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = 0; j < c.n; ++j) {
      float acc = 0.0f;
      for (int64_t p = 0; p < c.k; ++p) acc += a[c.trans_a ? p * c.m + i : i * c.k + p] * b[p * c.n + j];
      float v = c.alpha == 1.0f ? acc : c.alpha * acc;
      if (c.bias == 1) v += 0.5f * bias[i];
      if (c.bias == 2) v += 0.5f * bias[j];
      if (c.bias == 3) v += 0.5f * bias[i * c.n + j];
      if (c.residual) v += bias[i * c.n + j];
      if (c.clamp) {
        v = v < -1.0f ? -1.0f : v;
        v = v > 1.5f ? 1.5f : v;
      }
      out[i * ldc + j] = v;
    }
  return out;
}

enum class BForm { kPacked, kStrided, kFill };

std::vector<float> run(const kernels::F32GemmKernel& kernel, const Case& c, const std::vector<float>& a,
                       const std::vector<float>& b, const std::vector<float>& bias, int64_t ldc, BForm form,
                       int threads) {
  std::vector<float> out(static_cast<size_t>(c.m * ldc), -7.0f);
  F32Product p;
  p.m = c.m;
  p.n = c.n;
  p.k = c.k;
  p.a.data = a.data();
  p.a.outer_stride = c.trans_a ? 1 : c.k;
  p.a.k_stride = c.trans_a ? c.m : 1;
  std::vector<float> panels(static_cast<size_t>(kernels::panel_count(c.n, kernel.nr) * kernel.nr * c.k + 1));
  if (form == BForm::kPacked) {
    kernels::f32_pack_panels(b.data(), 1, c.n, c.n, c.k, kernel.nr, panels.data());
    p.b.packed = panels.data();
  } else if (form == BForm::kStrided) {
    p.b.data = b.data();
    p.b.outer_stride = 1;
    p.b.k_stride = c.n;
  } else {
    p.b.fill = [&](int64_t first, int64_t count, float* out) {
      for (int64_t q = 0; q < count; ++q)
        kernels::f32_pack_panel(b.data(), 1, c.n, first + q * kernel.nr, c.n, c.k, kernel.nr, out + q * c.k * kernel.nr);
    };
  }
  p.c = out.data();
  p.ldc = ldc;
  if (c.bias) {
    p.epilogue.bias = bias.data();
    p.epilogue.beta = 0.5f;
    p.epilogue.bias_rs = c.bias == 1 ? 1 : c.bias == 2 ? 0 : c.n;
    p.epilogue.bias_cs = c.bias == 1 ? 0 : 1;
  }
  if (c.residual) {
    p.epilogue.residual = bias.data();
    p.epilogue.residual_rs = c.n;
  }
  p.epilogue.alpha = c.alpha;
  p.epilogue.clamp = c.clamp;
  p.epilogue.min = -1.0f;
  p.epilogue.max = 1.5f;
  ThreadPool pool(threads);
  EXPECT_TRUE(run_f32_gemm(pool, kernel, p).is_ok());
  return out;
}

std::vector<Case> cases_around(const kernels::F32GemmKernel& kernel) {
  std::vector<Case> cases;
  const int mr = kernel.mr, nr = kernel.nr;
  int variant = 0;
  for (int64_t m : {1, mr - 1, mr, mr + 1, 2 * mr + 3})
    // nr + nr / 2: a last panel exactly as wide as the half-width edge tile; 1 to 5 columns
    // left over, alone or after whole vectors: the columns computed along the rows, every
    // count of them, and the first width past them.
    for (int64_t n : {1, nr - 1, nr, nr + 1, nr + 2, 2 * nr + 3, nr + 4, nr + nr / 2, 3 * nr + 5, nr / 2 + 1,
                      nr + nr / 2 + 2, 2 * nr + nr / 2 + 4, nr + nr / 2 + 5})
      for (int64_t k : {0, 1, 7, 70}) {
        Case c{m, n, k};
        c.trans_a = variant % 2 == 1;
        c.alpha = variant % 3 == 0 ? 1.0f : 0.75f;
        c.bias = variant % 4;
        c.residual = variant % 3 == 1;
        c.clamp = variant % 5 == 0;
        ++variant;
        cases.push_back(c);
      }
  // A few columns: a strided B is copied compactly, and the full A panels' chains run
  // interleaved, four panels at a time and then the rest, before a partial last panel.
  for (int64_t n : {1, 2, 3, 4})
    for (int64_t m : {5 * mr + 2, 9 * mr})
      cases.push_back({m, n, n == 1 ? 1107 : 70, n % 2 == 1, n == 3 ? 0.75f : 1.0f, static_cast<int>(n % 4), n != 2,
                       n >= 3});
  cases.push_back({150, 700, 300});  // large enough for the threads to split it
  // Deep, with every epilogue step, and large enough for several A chunks and B blocks.
  Case deep{2 * mr + 1, 3 * nr + 2, 1107, true, 0.75f, 1, true, true};
  cases.push_back(deep);
  cases.push_back({40 * mr + 5, 20 * nr + 3, 900});
  // With B packed, A's panels over all of k overflow the driver's L2 budget: the product
  // runs in parts along k, each continuing from the sums in C; epilogue after the last.
  Case split{12 * mr + 1, 2 * nr + 3, 3000, true, 0.75f, 3, true, true};
  cases.push_back(split);
  split.n = 2 * nr + nr / 2 + 1;  // and a last panel of whole vectors and a column
  cases.push_back(split);
  return cases;
}

std::string describe(const kernels::F32GemmKernel& kernel, const Case& c, BForm form, int threads) {
  return std::string(kernel.name) + " m=" + std::to_string(c.m) + " n=" + std::to_string(c.n) + " k=" +
         std::to_string(c.k) + " transA=" + std::to_string(c.trans_a) + " bias=" + std::to_string(c.bias) + " residual=" + std::to_string(c.residual) +
         " clamp=" + std::to_string(c.clamp) + " form=" + std::to_string(static_cast<int>(form)) +
         " threads=" + std::to_string(threads);
}

struct Operands {
  std::vector<float> a, b, bias;  // bias also serves as the residual matrix
};

Operands random_operands(const Case& c, uint32_t& seed) {
  Operands o;
  o.a = random_floats(static_cast<size_t>(c.m * c.k), seed++);
  o.b = random_floats(static_cast<size_t>(c.k * c.n), seed++);
  o.bias = random_floats(static_cast<size_t>(c.m * c.n), seed++);
  return o;
}

bool same_bits(const std::vector<float>& x, const std::vector<float>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}

TEST(KernelsF32GemmTiles, ExactKernelsMatchTheSpecBitForBit) {
  uint32_t seed = 1;
  for (Isa isa : kernels::supported_isas()) {
    const kernels::F32GemmKernel& kernel = kernels::f32_gemm_kernel(isa, false);
    for (const Case& c : cases_around(kernel)) {
      const auto [a, b, bias] = random_operands(c, seed);
      const int64_t ldc = c.n + 3;  // an odd row stride: the gap must stay untouched
      const auto want = spec(c, a, b, bias, ldc);
      for (BForm form : {BForm::kPacked, BForm::kStrided, BForm::kFill})
        for (int threads : {1, 2})
          ASSERT_TRUE(same_bits(run(kernel, c, a, b, bias, ldc, form, threads), want))
              << describe(kernel, c, form, threads);
    }
  }
}

TEST(KernelsF32GemmTiles, FmaKernelsStayWithinFloatError) {
  uint32_t seed = 1000;
  for (Isa isa : kernels::supported_isas()) {
    const kernels::F32GemmKernel& kernel = kernels::f32_gemm_kernel(isa, true);
    for (const Case& c : cases_around(kernel)) {
      const auto [a, b, bias] = random_operands(c, seed);
      const auto want = spec(c, a, b, bias, c.n);
      const auto got = run(kernel, c, a, b, bias, c.n, BForm::kStrided, 2);
      // |error| <= k * eps * sum|a*b| bounds both orders; the sums here are <= 4k.
      const float tol = static_cast<float>(c.k + 2) * 4.0f * (c.k + 1) * std::numeric_limits<float>::epsilon();
      for (size_t i = 0; i < want.size(); ++i)
        ASSERT_NEAR(got[i], want[i], tol) << describe(kernel, c, BForm::kStrided, 2) << " at " << i;
    }
  }
}

TEST(KernelsF32GemmTiles, ClampLetsNaNThroughLikeTheStandaloneOps) {
  const kernels::F32GemmKernel& kernel = kernels::f32_gemm_kernel(kernels::best_isa(), false);
  Case c{1, 3, 1};
  c.clamp = true;
  const std::vector<float> a = {1.0f}, b = {std::nanf(""), -5.0f, 5.0f}, bias;
  const auto got = run(kernel, c, a, b, bias, c.n, BForm::kStrided, 1);
  EXPECT_TRUE(std::isnan(got[0]));
  EXPECT_EQ(got[1], -1.0f);
  EXPECT_EQ(got[2], 1.5f);
}

TEST(KernelsF32GemmTiles, AskingForATierTheCpuLacksIsAClearError) {
  for (Isa isa : {Isa::kAvx2, Isa::kAvx512}) {
    auto r = kernels::resolve_isa(isa);
    if (kernels::isa_supported(isa)) {
      ASSERT_TRUE(r.is_ok());
      EXPECT_EQ(*r, isa);
    } else {
      ASSERT_FALSE(r.is_ok());
      EXPECT_NE(r.status().message().find(isa_name(isa)), std::string::npos) << r.status().message();
    }
  }
}

}  // namespace
}  // namespace twinrt::nn
