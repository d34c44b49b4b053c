#include <cmath>

#include "kernels/math/math.h"
#include "math_test_util.h"

namespace twinrt {
namespace {

using namespace math_test;

TEST(MathHyperbolic, SinhAccuracy) {
  EXPECT_LE(max_ulp_error("sinh", math::sinh, [](long double x) { return std::sinh(x); },
                          {{-3, 3, false}, {-1e-300, 711, true}, {-30, 30, false}}),
            kMaxUlp);
}

TEST(MathHyperbolic, CoshAccuracy) {
  EXPECT_LE(max_ulp_error("cosh", math::cosh, [](long double x) { return std::cosh(x); },
                          {{-3, 3, false}, {-1e-300, 711, true}, {-30, 30, false}}),
            kMaxUlp);
}

TEST(MathHyperbolic, TanhAccuracy) {
  EXPECT_LE(max_ulp_error("tanh", math::tanh, [](long double x) { return std::tanh(x); },
                          {{-3, 3, false}, {-1e-300, 40, true}, {-0.6, 0.6, false}}),
            kMaxUlp);
}

TEST(MathHyperbolic, AsinhAccuracy) {
  EXPECT_LE(max_ulp_error("asinh", math::asinh, [](long double x) { return std::asinh(x); },
                          {{-3, 3, false}, {-1e-300, 1e300, true}, {-0.6, 0.6, false}}),
            kMaxUlp);
}

TEST(MathHyperbolic, AcoshAccuracy) {
  EXPECT_LE(max_ulp_error("acosh", math::acosh, [](long double x) { return std::acosh(x); },
                          {{1, 3, false}, {1, 1e300, true}, {1, 1.001, false}}),
            kMaxUlp);
}

TEST(MathHyperbolic, AtanhAccuracy) {
  EXPECT_LE(max_ulp_error("atanh", math::atanh, [](long double x) { return std::atanh(x); },
                          {{-1, 1, false}, {-1e-300, 1, true}, {0.999, 1, false}}),
            kMaxUlp);
}

TEST(MathHyperbolic, SpecialValues) {
  struct Case { double (*f)(double); double x, want; };
  const Case cases[] = {
      {math::sinh, 0.0, 0.0}, {math::sinh, -0.0, -0.0}, {math::sinh, kInf, kInf},
      {math::sinh, -kInf, -kInf}, {math::sinh, kNaN, kNaN}, {math::sinh, 711, kInf},
      {math::cosh, 0.0, 1.0}, {math::cosh, -kInf, kInf}, {math::cosh, kNaN, kNaN},
      {math::tanh, 0.0, 0.0}, {math::tanh, -0.0, -0.0}, {math::tanh, kInf, 1.0},
      {math::tanh, -kInf, -1.0}, {math::tanh, kNaN, kNaN}, {math::tanh, 1e-310, 1e-310},
      {math::asinh, 0.0, 0.0}, {math::asinh, -0.0, -0.0}, {math::asinh, -kInf, -kInf},
      {math::asinh, kNaN, kNaN},
      {math::acosh, 1.0, 0.0}, {math::acosh, 0.5, kNaN}, {math::acosh, kInf, kInf},
      {math::acosh, -kInf, kNaN}, {math::acosh, kNaN, kNaN},
      {math::atanh, 0.0, 0.0}, {math::atanh, -0.0, -0.0}, {math::atanh, 1.0, kInf},
      {math::atanh, -1.0, -kInf}, {math::atanh, 1.5, kNaN}, {math::atanh, kNaN, kNaN},
  };
  for (const Case& c : cases)
    EXPECT_TRUE(same_double(c.f(c.x), c.want)) << "x=" << c.x << " got " << c.f(c.x);
}

}  // namespace
}  // namespace twinrt
