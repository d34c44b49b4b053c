// The row kernels of kernels/norm/f32_rows.h against a plain loop written from the order
// the header specifies, on every tier this CPU has, at row lengths around the 32-element
// block.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/cpu/isa.h"
#include "kernels/norm/f32_rows.h"

namespace twinrt::kernels {
namespace {

// f32_rows.h's order: partial i % 32 in index order, then the fixed tree.
template <class Step>
float ordered(const std::vector<float>& x, float start, Step step) {
  float p[32];
  for (float& v : p) v = start;
  for (size_t i = 0; i < x.size(); ++i) p[i % 32] = step(p[i % 32], x[i]);
  for (int half = 16; half >= 1; half /= 2)
    for (int j = 0; j < half; ++j) p[j] = step(p[j], p[j + half]);
  return p[0];
}

float add(float a, float b) { return a + b; }
float nan_max(float a, float b) { return std::isnan(a) || a >= b ? a : b; }

std::vector<float> row(int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> d(0.5f, 3.0f);
  std::vector<float> x(static_cast<size_t>(n));
  for (float& v : x) v = d(gen);
  return x;
}

uint32_t bits(float v) { return std::bit_cast<uint32_t>(v); }

const int64_t kLengths[] = {0, 1, 7, 31, 32, 33, 63, 64, 65, 128, 768, 1001};

TEST(KernelsF32Rows, SumsFollowTheSpecifiedOrderOnEveryTier) {
  for (Isa isa : supported_isas()) {
    const F32RowKernels& k = f32_row_kernels(isa);
    for (int64_t n : kLengths) {
      SCOPED_TRACE(std::string(isa_name(isa)) + " n=" + std::to_string(n));
      const std::vector<float> x = row(n, static_cast<unsigned>(n) + 1);
      EXPECT_EQ(bits(k.sum(x.data(), n)), bits(ordered(x, 0.0f, add)));
      const float mean = n > 0 ? k.sum(x.data(), n) / static_cast<float>(n) : 0.0f;
      std::vector<float> squares(x.size());
      for (size_t i = 0; i < x.size(); ++i) squares[i] = (x[i] - mean) * (x[i] - mean);
      EXPECT_EQ(bits(k.sum_squared_deviations(x.data(), n, mean)), bits(ordered(squares, 0.0f, add)));
      EXPECT_EQ(bits(k.max(x.data(), n)), bits(ordered(x, -INFINITY, nan_max)));
    }
  }
}

TEST(KernelsF32Rows, MaxPropagatesNaNAndSumsKeepSpecials) {
  for (Isa isa : supported_isas()) {
    SCOPED_TRACE(isa_name(isa));
    const F32RowKernels& k = f32_row_kernels(isa);
    std::vector<float> x = row(45, 3);
    x[40] = NAN;
    EXPECT_TRUE(std::isnan(k.max(x.data(), 45)));
    EXPECT_TRUE(std::isnan(k.sum(x.data(), 45)));
    x[40] = INFINITY;
    EXPECT_EQ(k.max(x.data(), 45), INFINITY);
    EXPECT_EQ(k.sum(x.data(), 45), INFINITY);
    const std::vector<float> negative_zeros(5, -0.0f);
    EXPECT_FALSE(std::signbit(k.sum(negative_zeros.data(), 5)));  // every partial starts at +0
    EXPECT_EQ(k.max(x.data(), 0), -INFINITY);
  }
}

TEST(KernelsF32Rows, MapsGiveTheScalarExpressionsBits) {
  for (Isa isa : supported_isas()) {
    const F32RowKernels& k = f32_row_kernels(isa);
    for (int64_t n : kLengths) {
      SCOPED_TRACE(std::string(isa_name(isa)) + " n=" + std::to_string(n));
      const std::vector<float> x = row(n, 7), scale = row(n, 8), bias = row(n, 9);
      std::vector<float> y(x.size()), in_place = x;
      const float mean = 0.37f, factor = 1.9f, c = -2.5f, d = 3.3f;
      k.normalize(x.data(), mean, factor, scale.data(), bias.data(), y.data(), n);
      for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(bits(y[i]), bits((x[i] - mean) * factor * scale[i] + bias[i]));
      k.subtract(in_place.data(), c, in_place.data(), n);
      for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(bits(in_place[i]), bits(x[i] - c));
      k.divide(x.data(), d, y.data(), n);
      for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(bits(y[i]), bits(x[i] / d));
    }
  }
}

}  // namespace
}  // namespace twinrt::kernels
