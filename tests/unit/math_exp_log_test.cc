#include <cmath>

#include "kernels/math/math.h"
#include "math_test_util.h"

namespace twinrt {
namespace {

using namespace math_test;

TEST(MathExpLog, ExpAccuracy) {
  double e = max_ulp_error("exp", math::exp, [](long double x) { return std::exp(x); },
                           {{-1, 1, false}, {-745.2, 709.79, false}, {-1e-300, 1e-300, false},
                            {-1e-5, 1e-20, true}, {-708, -745.2, false}});
  EXPECT_LE(e, kMaxUlp);
}

TEST(MathExpLog, Expm1Accuracy) {
  double e = max_ulp_error("expm1", math::expm1, [](long double x) { return std::expm1(x); },
                           {{-1, 1, false}, {-50, 709.7, false}, {-1e-300, 1.0, true},
                            {-3, 3, false}, {-1e-10, 1e-2, true}});
  EXPECT_LE(e, kMaxUlp);
}

TEST(MathExpLog, LogAccuracy) {
  double e = max_ulp_error("log", math::log, [](long double x) { return std::log(x); },
                           {{0.5, 2, false}, {1e-320, 1e308, true}, {0.9999, 1.0001, false},
                            {kMinSubnormal, 1e-300, true}});
  EXPECT_LE(e, kMaxUlp);
}

TEST(MathExpLog, Log1pAccuracy) {
  double e = max_ulp_error("log1p", math::log1p, [](long double x) { return std::log1p(x); },
                           {{-0.999999, 1, false}, {-1e-300, 1e300, true}, {-0.5, 0.5, false},
                            {-1e-20, 1e-1, true}});
  EXPECT_LE(e, kMaxUlp);
}

TEST(MathExpLog, SpecialValues) {
  struct Case { double (*f)(double); double x, want; };
  const Case cases[] = {
      {math::exp, 0.0, 1.0}, {math::exp, -0.0, 1.0}, {math::exp, kInf, kInf}, {math::exp, -kInf, 0.0},
      {math::exp, kNaN, kNaN}, {math::exp, 710, kInf}, {math::exp, -746, 0.0}, {math::exp, 1.0, M_E},
      {math::exp, -745.13321910194110842, kMinSubnormal},
      {math::expm1, 0.0, 0.0}, {math::expm1, -0.0, -0.0}, {math::expm1, kInf, kInf},
      {math::expm1, -kInf, -1.0}, {math::expm1, kNaN, kNaN}, {math::expm1, 1e-310, 1e-310},
      {math::log, 1.0, 0.0}, {math::log, 0.0, -kInf}, {math::log, -0.0, -kInf},
      {math::log, -1.0, kNaN}, {math::log, kInf, kInf}, {math::log, -kInf, kNaN},
      {math::log, kNaN, kNaN}, {math::log, M_E, 1.0},
      {math::log1p, 0.0, 0.0}, {math::log1p, -0.0, -0.0}, {math::log1p, -1.0, -kInf},
      {math::log1p, -2.0, kNaN}, {math::log1p, kInf, kInf}, {math::log1p, kNaN, kNaN},
      {math::log1p, 5e-324, 5e-324},
  };
  for (const Case& c : cases)
    EXPECT_TRUE(same_double(c.f(c.x), c.want)) << "x=" << c.x << " got " << c.f(c.x);
}

}  // namespace
}  // namespace twinrt
