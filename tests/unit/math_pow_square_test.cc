// Pow's shortcut for float bases (ops/binary/pow.cc) computes x^2 as one multiplication in
// double: that is only allowed because math::pow(x, 2) returns exactly that value for every
// float x. Checked on random floats of every magnitude and on the edges.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "kernels/math/math.h"

namespace twinrt::math {
namespace {

TEST(MathPowSquare, PowOfAFloatSquaredIsTheExactProduct) {
  std::vector<float> xs = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, std::numeric_limits<float>::max(),
                           -std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
                           std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min()};
  std::mt19937 gen(5);
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 1000000; ++i) {
    const float x = std::bit_cast<float>(bits(gen));
    if (!std::isnan(x)) xs.push_back(x);
  }
  for (float x : xs) {
    const double d = x;
    ASSERT_EQ(std::bit_cast<uint64_t>(pow(d, 2.0)), std::bit_cast<uint64_t>(d * d)) << "x = " << x;
  }
  EXPECT_TRUE(std::isnan(pow(static_cast<double>(NAN), 2.0)));
}

}  // namespace
}  // namespace twinrt::math
