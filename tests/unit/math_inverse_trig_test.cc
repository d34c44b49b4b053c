#include <cmath>

#include "kernels/math/math.h"
#include "math_test_util.h"

namespace twinrt {
namespace {

using namespace math_test;

TEST(MathInverseTrig, AtanAccuracy) {
  EXPECT_LE(max_ulp_error("atan", math::atan, [](long double x) { return std::atan(x); },
                          {{-4, 4, false}, {-1e-300, 1e300, true}, {-1.1, 1.1, false}}),
            kMaxUlp);
}

TEST(MathInverseTrig, AsinAccuracy) {
  EXPECT_LE(max_ulp_error("asin", math::asin, [](long double x) { return std::asin(x); },
                          {{-1, 1, false}, {-1e-300, 1, true}, {0.999, 1, false}}),
            kMaxUlp);
}

TEST(MathInverseTrig, AcosAccuracy) {
  EXPECT_LE(max_ulp_error("acos", math::acos, [](long double x) { return std::acos(x); },
                          {{-1, 1, false}, {-1e-300, 1, true}, {0.999, 1, false}, {-1, -0.999, false}}),
            kMaxUlp);
}

TEST(MathInverseTrig, Atan2Accuracy) {
  std::mt19937_64 rng(7);
  double worst = 0;
  const Range ranges[] = {{-10, 10, false}, {-1e-300, 1e300, true}, {-1e-310, 1e-300, true}};
  for (const Range& ry : ranges)
    for (const Range& rx : ranges) {
      std::vector<double> ys = sample(ry, 3000, rng), xs = sample(rx, 3000, rng);
      for (size_t i = 0; i < ys.size(); ++i) {
        double e = ulp_error(math::atan2(ys[i], xs[i]),
                             std::atan2(static_cast<long double>(ys[i]), static_cast<long double>(xs[i])));
        EXPECT_LE(e, kMaxUlp) << ys[i] << ", " << xs[i];
        worst = std::max(worst, e);
      }
    }
  std::printf("  atan2  max error %.3f ulp\n", worst);
}

TEST(MathInverseTrig, SpecialValues) {
  struct Case { double (*f)(double); double x, want; };
  const Case cases[] = {
      {math::atan, 0.0, 0.0}, {math::atan, -0.0, -0.0}, {math::atan, kInf, M_PI_2},
      {math::atan, -kInf, -M_PI_2}, {math::atan, kNaN, kNaN}, {math::atan, 1.0, M_PI_4},
      {math::asin, 0.0, 0.0}, {math::asin, -0.0, -0.0}, {math::asin, 1.0, M_PI_2},
      {math::asin, -1.0, -M_PI_2}, {math::asin, 1.0000000000000002, kNaN}, {math::asin, kNaN, kNaN},
      {math::acos, 1.0, 0.0}, {math::acos, -1.0, M_PI}, {math::acos, 0.0, M_PI_2},
      {math::acos, -1.0000000000000002, kNaN}, {math::acos, kInf, kNaN}, {math::acos, kNaN, kNaN},
  };
  for (const Case& c : cases)
    EXPECT_TRUE(same_double(c.f(c.x), c.want)) << "x=" << c.x << " got " << c.f(c.x);

  struct Case2 { double y, x, want; };
  const Case2 cases2[] = {
      {0.0, 0.0, 0.0}, {-0.0, 0.0, -0.0}, {0.0, -0.0, M_PI}, {-0.0, -0.0, -M_PI},
      {0.0, -1.0, M_PI}, {-0.0, -1.0, -M_PI}, {0.0, 1.0, 0.0}, {-0.0, 1.0, -0.0},
      {1.0, 0.0, M_PI_2}, {-1.0, -0.0, -M_PI_2}, {kInf, kInf, M_PI_4}, {kInf, -kInf, 3 * M_PI_4},
      {-kInf, kInf, -M_PI_4}, {-kInf, -kInf, -3 * M_PI_4}, {kInf, 1.0, M_PI_2}, {1.0, kInf, 0.0},
      {-1.0, kInf, -0.0}, {1.0, -kInf, M_PI}, {-1.0, -kInf, -M_PI}, {kNaN, 1.0, kNaN},
      {1.0, kNaN, kNaN}, {kMaxDouble, kMinSubnormal, M_PI_2}, {kMinSubnormal, kMaxDouble, 0.0},
  };
  for (const Case2& c : cases2)
    EXPECT_TRUE(same_double(math::atan2(c.y, c.x), c.want))
        << "atan2(" << c.y << ", " << c.x << ") got " << math::atan2(c.y, c.x);
}

}  // namespace
}  // namespace twinrt
