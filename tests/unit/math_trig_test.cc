#include <cmath>

#include "kernels/math/math.h"
#include "math_test_util.h"

namespace twinrt {
namespace {

using namespace math_test;

// Small, medium (Cody-Waite reduction) and huge (Payne-Hanek reduction) arguments.
const std::vector<Range> kTrigRanges = {
    {-4, 4, false}, {-1e-300, 1e-3, true}, {-1e6, 1e6, false}, {-1e6, 1e22, true},
    {-1e22, kMaxDouble, true}, {-1e5, 1e5, true}};

TEST(MathTrig, SinAccuracy) {
  EXPECT_LE(max_ulp_error("sin", math::sin, [](long double x) { return std::sin(x); }, kTrigRanges),
            kMaxUlp);
}

TEST(MathTrig, CosAccuracy) {
  EXPECT_LE(max_ulp_error("cos", math::cos, [](long double x) { return std::cos(x); }, kTrigRanges),
            kMaxUlp);
}

TEST(MathTrig, TanAccuracy) {
  EXPECT_LE(max_ulp_error("tan", math::tan, [](long double x) { return std::tan(x); }, kTrigRanges),
            kMaxUlp);
}

// Arguments whose distance to a multiple of pi/2 is tiny relative to the argument (hard cases
// for the reduction): doubles nearest to k pi/2, plus the classic worst case for all doubles.
TEST(MathTrig, NearMultiplesOfHalfPi) {
  std::vector<double> xs = {0x1.6ac5b262ca1ffp+849, 0x1.921fb54442d18p+0, 0x1.921fb54442d18p+1,
                            6381956970095103.0 * 0x1p797, 5.0e22, 1.0e22};
  for (int k = 1; k < 2000000; k += 997) xs.push_back(static_cast<double>(k * 1.5707963267948966L));
  for (double x : xs) {
    EXPECT_LE(ulp_error(math::sin(x), std::sin(static_cast<long double>(x))), kMaxUlp) << x;
    EXPECT_LE(ulp_error(math::cos(x), std::cos(static_cast<long double>(x))), kMaxUlp) << x;
  }
}

TEST(MathTrig, SpecialValues) {
  struct Case { double (*f)(double); double x, want; };
  const Case cases[] = {
      {math::sin, 0.0, 0.0}, {math::sin, -0.0, -0.0}, {math::sin, kInf, kNaN},
      {math::sin, -kInf, kNaN}, {math::sin, kNaN, kNaN}, {math::sin, 1e-310, 1e-310},
      {math::cos, 0.0, 1.0}, {math::cos, -0.0, 1.0}, {math::cos, kInf, kNaN}, {math::cos, kNaN, kNaN},
      {math::tan, 0.0, 0.0}, {math::tan, -0.0, -0.0}, {math::tan, kInf, kNaN}, {math::tan, kNaN, kNaN},
      {math::tan, -1e-310, -1e-310},
  };
  for (const Case& c : cases)
    EXPECT_TRUE(same_double(c.f(c.x), c.want)) << "x=" << c.x << " got " << c.f(c.x);
}

}  // namespace
}  // namespace twinrt
