// Accuracy of the fast float functions (kernels/math/fast_float.h) against glibc's long
// double functions: the largest error in float ulps, and how often the result is not the
// correctly rounded float, are printed and bounded.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "kernels/cpu/isa.h"
#include "kernels/math/fast_float.h"

namespace twinrt::math {
namespace {

// |got - ref| in units of the spacing of floats at ref (subnormal spacing below FLT_MIN).
double float_ulps(float got, long double ref) {
  const float ref_f = static_cast<float>(ref);
  if (std::isnan(ref_f)) return std::isnan(got) ? 0 : INFINITY;
  if (std::isinf(ref_f) || std::isinf(got)) return got == ref_f ? 0 : INFINITY;
  int e;
  std::frexp(std::fabs(ref), &e);
  const int ulp_exp = e - 24 < -149 ? -149 : e - 24;
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) / std::ldexp(1.0L, ulp_exp));
}

struct Report {
  double max_ulps = 0;
  float worst = 0;
  int64_t checked = 0, not_nearest = 0;
};

Report measure(float (*f)(float), long double (*ref)(long double), const std::vector<float>& xs) {
  Report r;
  for (float x : xs) {
    const long double want = ref(static_cast<long double>(x));
    const float got = f(x);
    const double ulps = float_ulps(got, want);
    ++r.checked;
    if (got != static_cast<float>(want) && !(std::isnan(got) && std::isnan(static_cast<float>(want)))) ++r.not_nearest;
    if (ulps > r.max_ulps) {
      r.max_ulps = ulps;
      r.worst = x;
    }
  }
  return r;
}

// Random floats of [lo, hi], every float of a window around each special point, and the
// values every function must get exactly right.
std::vector<float> arguments(float lo, float hi, std::vector<float> points) {
  std::mt19937 gen(11);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> xs;
  for (int i = 0; i < 2000000; ++i) xs.push_back(u(gen));
  for (float p : points) {
    float v = p;
    for (int i = 0; i < 2000; ++i) v = std::nextafter(v, -INFINITY);
    for (int i = 0; i < 4000; ++i) xs.push_back(v = std::nextafter(v, INFINITY));
  }
  for (float s : {0.0f, -0.0f, INFINITY, -INFINITY, std::numeric_limits<float>::denorm_min(), 1e-30f, -1e-30f})
    xs.push_back(s);
  return xs;
}

void print(const char* name, const Report& r) {
  std::printf("%s: %lld arguments, max error %.3f ulp (at %.9g), %lld not the correctly rounded float\n", name,
              static_cast<long long>(r.checked), r.max_ulps, static_cast<double>(r.worst),
              static_cast<long long>(r.not_nearest));
}

TEST(MathFastFloat, ExpIsWithinOneUlp) {
  const auto xs = arguments(-104.0f, 89.0f, {0.0f, 1.0f, -87.33655f, 88.72283f, -103.27893f, -0.5f, 10.0f});
  const Report r = measure(exp_f32, [](long double x) { return expl(x); }, xs);
  print("exp_f32", r);
  EXPECT_LE(r.max_ulps, 1.0);
  EXPECT_LT(r.not_nearest, r.checked / 10000);
  EXPECT_TRUE(std::isnan(exp_f32(NAN)));
  EXPECT_EQ(exp_f32(-INFINITY), 0.0f);
  EXPECT_EQ(exp_f32(INFINITY), INFINITY);
  EXPECT_EQ(exp_f32(0.0f), 1.0f);
}

TEST(MathFastFloat, ErfIsWithinOneUlp) {
  const auto xs = arguments(-5.0f, 5.0f, {0.0f, 0.5f, -0.5f, 1.0f, 2.75f, 3.9f, -4.0f});
  const Report r = measure(erf_f32, [](long double x) { return erfl(x); }, xs);
  print("erf_f32", r);
  EXPECT_LE(r.max_ulps, 1.0);
  EXPECT_LT(r.not_nearest, r.checked / 10000);
  EXPECT_TRUE(std::signbit(erf_f32(-0.0f)));
  EXPECT_EQ(erf_f32(INFINITY), 1.0f);
  EXPECT_EQ(erf_f32(-INFINITY), -1.0f);
  EXPECT_TRUE(std::isnan(erf_f32(NAN)));
}

// Default mode's erf: float arithmetic, so a few ulp and more results off the nearest float
// (fit_erf_float.py predicts 2.6 ulp and 14% not the nearest float).
TEST(MathFastFloat, ErfInFloatIsWithinThreeUlps) {
  const auto xs = arguments(-5.0f, 5.0f, {0.0f, 0.875f, -0.875f, 0.4762f, 1.0f, 2.75f, 3.925f, -4.0f});
  const Report r = measure(erf_in_float, [](long double x) { return erfl(x); }, xs);
  print("erf_in_float", r);
  EXPECT_LE(r.max_ulps, 3.0);
  EXPECT_LT(r.not_nearest, r.checked / 5);
  EXPECT_TRUE(std::signbit(erf_in_float(-0.0f)));
  EXPECT_EQ(erf_in_float(4.0f), 1.0f);
  EXPECT_EQ(erf_in_float(INFINITY), 1.0f);
  EXPECT_EQ(erf_in_float(-INFINITY), -1.0f);
  EXPECT_TRUE(std::isnan(erf_in_float(NAN)));
}

// Default mode's exp: float arithmetic; results below 2^-126 round once, at the last step.
TEST(MathFastFloat, ExpInFloatIsWithinOneAndAHalfUlps) {
  const auto xs = arguments(-104.0f, 89.0f, {0.0f, 1.0f, -87.33655f, 88.72283f, -103.27893f, -0.5f, 10.0f});
  const Report r = measure(exp_in_float, [](long double x) { return expl(x); }, xs);
  print("exp_in_float", r);
  EXPECT_LE(r.max_ulps, 1.5);
  EXPECT_TRUE(std::isnan(exp_in_float(NAN)));
  EXPECT_EQ(exp_in_float(-INFINITY), 0.0f);
  EXPECT_EQ(exp_in_float(-1000.0f), 0.0f);
  EXPECT_EQ(exp_in_float(INFINITY), INFINITY);
  EXPECT_EQ(exp_in_float(88.8f), INFINITY);
  EXPECT_EQ(exp_in_float(0.0f), 1.0f);
  EXPECT_EQ(exp_in_float(-0.0f), 1.0f);
}

TEST(MathFastFloat, SigmoidIsWithinOneUlp) {
  const auto xs = arguments(-105.0f, 90.0f, {0.0f, 1.0f, -1.0f, 16.6f, -87.33655f, -103.27893f, -104.0f, 89.0f});
  const Report r = measure(sigmoid_f32, [](long double x) { return 1.0L / (1.0L + expl(-x)); }, xs);
  print("sigmoid_f32", r);
  EXPECT_LE(r.max_ulps, 1.0);
  EXPECT_LT(r.not_nearest, r.checked / 10000);
  EXPECT_TRUE(std::isnan(sigmoid_f32(NAN)));
  EXPECT_EQ(sigmoid_f32(-INFINITY), 0.0f);
  EXPECT_EQ(sigmoid_f32(INFINITY), 1.0f);
  EXPECT_EQ(sigmoid_f32(0.0f), 0.5f);
}

// Default mode's sigmoid: float arithmetic from exp_in_float; e / (1 + e) below zero keeps
// the subnormal results (1 / (1 + e^-x) gave 0 there).
TEST(MathFastFloat, SigmoidInFloatIsWithinThreeUlps) {
  const auto xs = arguments(-105.0f, 90.0f, {0.0f, 1.0f, -1.0f, 16.6f, -87.33655f, -103.27893f, -104.0f, 89.0f});
  const Report r = measure(sigmoid_in_float, [](long double x) { return 1.0L / (1.0L + expl(-x)); }, xs);
  print("sigmoid_in_float", r);
  EXPECT_LE(r.max_ulps, 3.0);
  EXPECT_TRUE(std::isnan(sigmoid_in_float(NAN)));
  EXPECT_EQ(sigmoid_in_float(-INFINITY), 0.0f);
  EXPECT_EQ(sigmoid_in_float(INFINITY), 1.0f);
  EXPECT_EQ(sigmoid_in_float(0.0f), 0.5f);
  EXPECT_EQ(sigmoid_in_float(-0.0f), 0.5f);
  EXPECT_GT(sigmoid_in_float(-95.0f), 0.0f);
}

// The array functions give each element the scalar function's bits: every argument of the
// accuracy tests above, specials and NaN payloads included, at every offset of a block.
void expect_same_bits_as_scalar(void (*array_fn)(const float*, float*, int64_t), float (*scalar)(float),
                                std::vector<float> xs, const char* name) {
  for (uint32_t bits : {0x7fc00001u, 0xffc12345u, 0x7f800001u})  // quiet and signalling NaNs
    xs.push_back(std::bit_cast<float>(bits));
  for (size_t offset = 0; offset < 4; ++offset) {
    std::vector<float> got(xs.size());
    array_fn(xs.data() + offset, got.data(), static_cast<int64_t>(xs.size() - offset));
    for (size_t i = offset; i < xs.size(); ++i) {
      const float want = scalar(xs[i]);
      ASSERT_EQ(std::bit_cast<uint32_t>(got[i - offset]), std::bit_cast<uint32_t>(want))
          << name << " at " << xs[i] << " (offset " << offset << ")";
    }
  }
  std::vector<float> in_place = xs;
  array_fn(in_place.data(), in_place.data(), static_cast<int64_t>(in_place.size()));
  for (size_t i = 0; i < xs.size(); ++i)
    ASSERT_EQ(std::bit_cast<uint32_t>(in_place[i]), std::bit_cast<uint32_t>(scalar(xs[i]))) << name << " in place";
}

TEST(MathFastFloat, ArrayFunctionsGiveTheScalarBits) {
  auto xs = arguments(-110.0f, 95.0f, {0.0f, 1.0f, -87.33655f, 88.72283f, 89.0f, -104.0f, -103.27893f, 0.5f, 4.0f});
  for (float s : {-0.0f, 3.999999f, -3.999999f, 0.49999997f, -0.49999997f, 4.0f, -4.0f})
    xs.push_back(s);
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512}) {
    if (!kernels::isa_supported(isa)) continue;
    SCOPED_TRACE(isa_name(isa));
    expect_same_bits_as_scalar(exp_f32_n_kernel(isa), exp_f32, xs, "exp");
    expect_same_bits_as_scalar(erf_f32_n_kernel(isa), erf_f32, xs, "erf");
    expect_same_bits_as_scalar(sigmoid_f32_n_kernel(isa), sigmoid_f32, xs, "sigmoid");
    expect_same_bits_as_scalar(erf_in_float_n_kernel(isa), erf_in_float, xs, "erf_in_float");
    expect_same_bits_as_scalar(exp_in_float_n_kernel(isa), exp_in_float, xs, "exp_in_float");
    expect_same_bits_as_scalar(sigmoid_in_float_n_kernel(isa), sigmoid_in_float, xs, "sigmoid_in_float");
    // SiLU in one pass: a Sigmoid step, then a Mul step, to the bit.
    expect_same_bits_as_scalar(silu_f32_n_kernel(isa), [](float x) { return x * sigmoid_f32(x); }, xs, "silu");
    expect_same_bits_as_scalar(silu_in_float_n_kernel(isa), [](float x) { return x * sigmoid_in_float(x); }, xs,
                               "silu_in_float");
  }
}

}  // namespace
}  // namespace twinrt::math
