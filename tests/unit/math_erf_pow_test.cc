#include <cmath>

#include "kernels/math/math.h"
#include "math_test_util.h"

namespace twinrt {
namespace {

using namespace math_test;

TEST(MathErf, Accuracy) {
  EXPECT_LE(max_ulp_error("erf", math::erf, [](long double x) { return std::erf(x); },
                          {{-6.5, 6.5, false}, {-1e-300, 10, true}, {-1, 1, false}, {0.4, 0.6, false}}),
            kMaxUlp);
}

TEST(MathErf, SpecialValues) {
  const double xs[] = {0.0, -0.0, kInf, -kInf, kNaN, 6.0, -7.0, 1e-310};
  const double want[] = {0.0, -0.0, 1.0, -1.0, kNaN, 1.0, -1.0, 1.1283791670955126 * 1e-310};
  for (int i = 0; i < 8; ++i)
    EXPECT_LE(ulp_error(math::erf(xs[i]), want[i]), 1.0) << xs[i];
  EXPECT_TRUE(same_double(math::erf(-0.0), -0.0));
}

TEST(MathPow, Accuracy) {
  std::mt19937_64 rng(99);
  double worst = 0;
  struct Pair { Range x, y; };
  const Pair pairs[] = {
      {{0, 10, false}, {-10, 10, false}},
      {{1e-300, 1e300, true}, {-1, 1, false}},
      {{0.5, 2, false}, {-1000, 1000, false}},
      {{0.999, 1.001, false}, {-1e6, 1e6, false}},
      {{1e-310, 1e-300, true}, {-1.05, 0.5, false}},
      {{-10, 10, false}, {-20, 20, false}},  // integer exponents below
  };
  for (int p = 0; p < 6; ++p) {
    std::vector<double> xs = sample(pairs[p].x, 20000, rng), ys = sample(pairs[p].y, 20000, rng);
    for (size_t i = 0; i < xs.size(); ++i) {
      double y = p == 5 ? std::round(ys[i]) : ys[i];
      double e = ulp_error(math::pow(xs[i], y),
                           std::pow(static_cast<long double>(xs[i]), static_cast<long double>(y)));
      EXPECT_LE(e, kMaxUlp) << "pow(" << xs[i] << ", " << y << ")";
      worst = std::max(worst, e);
    }
  }
  std::printf("  pow    max error %.3f ulp\n", worst);
}

TEST(MathPow, ExactPowersAreExact) {
  EXPECT_EQ(math::pow(2, 10), 1024.0);
  EXPECT_EQ(math::pow(3, 3), 27.0);
  EXPECT_EQ(math::pow(-2, 3), -8.0);
  EXPECT_EQ(math::pow(10, -2), 0.01);
  EXPECT_EQ(math::pow(4, 0.5), 2.0);
  EXPECT_EQ(math::pow(2, -1074), kMinSubnormal);
  EXPECT_EQ(math::pow(2, 1023), 0x1p1023);
}

TEST(MathPow, SpecialValues) {
  struct Case { double x, y, want; };
  const Case cases[] = {
      {kNaN, 0.0, 1.0}, {kNaN, -0.0, 1.0}, {1.0, kNaN, 1.0}, {-1.0, kInf, 1.0}, {-1.0, -kInf, 1.0},
      {kNaN, 1.0, kNaN}, {2.0, kNaN, kNaN},
      {0.0, -3.0, kInf}, {-0.0, -3.0, -kInf}, {0.0, -2.0, kInf}, {-0.0, -2.0, kInf},
      {-0.0, -0.5, kInf}, {0.0, -kInf, kInf}, {-0.0, -kInf, kInf},
      {0.0, 3.0, 0.0}, {-0.0, 3.0, -0.0}, {-0.0, 2.0, 0.0}, {-0.0, 0.5, 0.0}, {-0.0, kInf, 0.0},
      {0.5, -kInf, kInf}, {2.0, -kInf, 0.0}, {0.5, kInf, 0.0}, {2.0, kInf, kInf},
      {-0.5, kInf, 0.0}, {-2.0, kInf, kInf},
      {-kInf, -3.0, -0.0}, {-kInf, -2.0, 0.0}, {-kInf, -0.5, 0.0},
      {-kInf, 3.0, -kInf}, {-kInf, 2.0, kInf}, {-kInf, 0.5, kInf},
      {kInf, -1.0, 0.0}, {kInf, 0.5, kInf},
      {-2.0, 0.5, kNaN}, {-2.0, 1.5, kNaN}, {-2.0, 1e300, kInf}, {-0.5, 1e300, 0.0},
      {-2.0, 3.0, -8.0}, {-2.0, -1.0, -0.5},
      {10.0, 400.0, kInf}, {10.0, -400.0, 0.0}, {-10.0, 401.0, -kInf}, {-10.0, -401.0, -0.0},
  };
  for (const Case& c : cases) {
    EXPECT_TRUE(same_double(math::pow(c.x, c.y), c.want))
        << "pow(" << c.x << ", " << c.y << ") got " << math::pow(c.x, c.y);
  }
  // Near 1 with a huge exponent the result is finite: the |y| >= 2^63 shortcut must not fire.
  const double just_above_one = 1 + 0x1p-52;
  EXPECT_LE(ulp_error(math::pow(just_above_one, 0x1p60),
                      std::pow(static_cast<long double>(just_above_one), 0x1p60L)), kMaxUlp);
}

}  // namespace
}  // namespace twinrt
