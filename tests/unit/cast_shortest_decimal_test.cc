// The portable shortest-decimal writer (used because emscripten's libc++ has no float
// std::to_chars) must write what libstdc++'s std::to_chars writes.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <random>

#include "ops/cast/shortest_decimal.h"

namespace twinrt::cast {
namespace {

template <class T>
std::string to_chars_text(T v) {
  char buf[512];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

TEST(ShortestDecimal, HandPickedValues) {
  EXPECT_EQ(shortest_decimal(0.1f), "0.1");
  EXPECT_EQ(shortest_decimal(0.039187793f), "0.039187793");
  EXPECT_EQ(shortest_decimal(100.0f), "100");
  EXPECT_EQ(shortest_decimal(1e20f), "1e+20");
  EXPECT_EQ(shortest_decimal(-1.5e-7f), "-1.5e-07");
  EXPECT_EQ(shortest_decimal(-0.0f), "-0");
  EXPECT_EQ(shortest_decimal(397605984.0f), "397605984");  // integral: exact digits
  EXPECT_EQ(shortest_decimal(0.3), "0.3");
  EXPECT_EQ(shortest_decimal(5e-324), "5e-324");
  EXPECT_EQ(general_decimal(0.1f, 3), "0.1");
  EXPECT_EQ(general_decimal(1234567.0, 3), "1.23e+06");
}

TEST(ShortestDecimal, MatchesStdToCharsOnRandomBits) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = rng();
    float f;
    double d;
    uint32_t low = static_cast<uint32_t>(bits);
    std::memcpy(&f, &low, sizeof f);
    std::memcpy(&d, &bits, sizeof d);
    if (std::isfinite(f)) {
      ASSERT_EQ(shortest_decimal(f), to_chars_text(f)) << "float bits " << low;
    }
    if (std::isfinite(d)) {
      ASSERT_EQ(shortest_decimal(d), to_chars_text(d)) << "double bits " << bits;
    }
  }
}

TEST(ShortestDecimal, MatchesStdToCharsAtPowersOfTwo) {
  for (int e = -149; e < 128; ++e) {
    float p = std::ldexp(1.0f, e);
    for (float f : {p, std::nextafter(p, 0.0f), std::nextafter(p, INFINITY)})
      if (std::isfinite(f)) {
        ASSERT_EQ(shortest_decimal(f), to_chars_text(f)) << f;
      }
  }
  for (int e = -1074; e < 1024; ++e) {
    double p = std::ldexp(1.0, e);
    for (double d : {p, std::nextafter(p, 0.0), std::nextafter(p, INFINITY)})
      if (std::isfinite(d)) {
        ASSERT_EQ(shortest_decimal(d), to_chars_text(d)) << d;
      }
  }
}

}  // namespace
}  // namespace twinrt::cast
