// Unary elementwise ops: integer edge cases, attributes, float16/bfloat16 paths and
// non-finite inputs, against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/math/half.h"
#include "tensor_op_harness.h"

namespace twinrt {
namespace {

using tensor_testing::TensorOpTest;
using tensor_testing::values;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Runs `test` on a 1-D input and returns its output values.
template <class T>
std::vector<T> run_unary(TensorOpTest& test, std::vector<T> in, int threads = 1) {
  auto out = test.input<T>({static_cast<int64_t>(in.size())}, in).run(Mode::kDefault, threads);
  EXPECT_TRUE(out.is_ok()) << out.status().message();
  return out.is_ok() ? values<T>(out.value()[0]) : std::vector<T>{};
}
template <class T>
std::vector<T> run_unary(TensorOpTest&& test, std::vector<T> in, int threads = 1) {
  return run_unary<T>(test, std::move(in), threads);
}

TEST(UnaryOps, IntegerAbsNegWrapAtTheMinimum) {
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(run_unary<int32_t>(TensorOpTest("Abs", 13), {-5, 0, 7, kMin}),
            (std::vector<int32_t>{5, 0, 7, kMin}));
  EXPECT_EQ(run_unary<int8_t>(TensorOpTest("Neg", 13), {-128, -1, 0, 127}),
            (std::vector<int8_t>{-128, 1, 0, -127}));
  EXPECT_EQ(run_unary<uint16_t>(TensorOpTest("Abs", 13), {0, 65535}), (std::vector<uint16_t>{0, 65535}));
}

TEST(UnaryOps, SignOfIntegersAndFloats) {
  EXPECT_EQ(run_unary<int64_t>(TensorOpTest("Sign", 13), {-9, 0, 3}), (std::vector<int64_t>{-1, 0, 1}));
  EXPECT_EQ(run_unary<uint8_t>(TensorOpTest("Sign", 13), {0, 200}), (std::vector<uint8_t>{0, 1}));
  auto s = run_unary<float>(TensorOpTest("Sign", 13), {-2.5f, 0.0f, 1e-30f, kNaN});
  EXPECT_EQ(s[0], -1.0f);
  EXPECT_EQ(s[1], 0.0f);
  EXPECT_EQ(s[2], 1.0f);
  EXPECT_TRUE(std::isnan(s[3]));
}

TEST(UnaryOps, ReluOnSignedIntegersAndNaN) {
  EXPECT_EQ(run_unary<int16_t>(TensorOpTest("Relu", 14), {-3, 0, 4}), (std::vector<int16_t>{0, 0, 4}));
  auto r = run_unary<float>(TensorOpTest("Relu", 14), {-1.0f, 2.0f, kNaN, -kInf});
  EXPECT_EQ(r[0], 0.0f);
  EXPECT_EQ(r[1], 2.0f);
  EXPECT_TRUE(std::isnan(r[2]));
  EXPECT_EQ(r[3], 0.0f);
}

TEST(UnaryOps, IsInfHonoursDetectAttributes) {
  std::vector<float> x = {kInf, -kInf, 1.0f, kNaN};
  auto both = TensorOpTest("IsInf", 10).input<float>({4}, x).run();
  ASSERT_TRUE(both.is_ok());
  EXPECT_EQ(values<bool>(both.value()[0]), (std::vector<bool>{true, true, false, false}));
  auto neg = TensorOpTest("IsInf", 10).attr("detect_positive", 0).input<float>({4}, x).run();
  ASSERT_TRUE(neg.is_ok());
  EXPECT_EQ(values<bool>(neg.value()[0]), (std::vector<bool>{false, true, false, false}));
  auto nan = TensorOpTest("IsNaN", 13).input<float>({4}, x).run();
  ASSERT_TRUE(nan.is_ok());
  EXPECT_EQ(values<bool>(nan.value()[0]), (std::vector<bool>{false, false, false, true}));
}

TEST(UnaryOps, NotOnBool) {
  auto out = TensorOpTest("Not", 1).input<bool>({3}, {true, false, true}).run();
  ASSERT_TRUE(out.is_ok());
  EXPECT_EQ(values<bool>(out.value()[0]), (std::vector<bool>{false, true, false}));
}

TEST(UnaryOps, ShrinkOnIntegersSaturates) {
  // lambd 1.5, bias 100: -200 -> -100, 2 -> -98, 1 -> 0, 127 -> 27; int8 saturates at -128.
  EXPECT_EQ(run_unary<int8_t>(TensorOpTest("Shrink", 9).attr("lambd", 1.5f).attr("bias", 100.0f), {-100, -2, 1, 127, -30}), (std::vector<int8_t>{0, 98, 0, 27, 70}));
  EXPECT_EQ(run_unary<int8_t>(TensorOpTest("Shrink", 9).attr("lambd", 0.5f).attr("bias", -100.0f), {100, -100}), (std::vector<int8_t>{127, -128}));
}

TEST(UnaryOps, ActivationsMatchTheirFormulas) {
  auto elu = run_unary<float>(TensorOpTest("Elu", 6).attr("alpha", 2.0f), {-1.0f, 3.0f});
  EXPECT_FLOAT_EQ(elu[0], static_cast<float>(2.0 * (std::exp(-1.0) - 1.0)));
  EXPECT_EQ(elu[1], 3.0f);
  auto hs = run_unary<float>(TensorOpTest("HardSigmoid", 6), {-10.0f, 0.0f, 1.0f, 10.0f});
  EXPECT_EQ(hs, (std::vector<float>{0.0f, 0.5f, 0.7f, 1.0f}));
  auto hsw = run_unary<float>(TensorOpTest("HardSwish", 14), {-4.0f, 0.0f, 1.5f, 4.0f});
  EXPECT_EQ(hsw, (std::vector<float>{0.0f, 0.0f, 1.125f, 4.0f}));
  auto tr = run_unary<float>(TensorOpTest("ThresholdedRelu", 10).attr("alpha", 2.0f), {2.0f, 2.5f});
  EXPECT_EQ(tr, (std::vector<float>{0.0f, 2.5f}));
  auto celu = run_unary<float>(TensorOpTest("Celu", 12).attr("alpha", 2.0f), {-2.0f, 1.0f});
  EXPECT_FLOAT_EQ(celu[0], static_cast<float>(2.0 * (std::exp(-1.0) - 1.0)));
  EXPECT_EQ(celu[1], 1.0f);
  auto sp = run_unary<float>(TensorOpTest("Softplus", 1), {-kInf, 0.0f, 1000.0f, kInf});
  EXPECT_EQ(sp[0], 0.0f);
  EXPECT_FLOAT_EQ(sp[1], static_cast<float>(std::log(2.0)));
  EXPECT_EQ(sp[2], 1000.0f);
  EXPECT_EQ(sp[3], kInf);
  auto ss = run_unary<float>(TensorOpTest("Softsign", 1), {-kInf, 3.0f});
  EXPECT_EQ(ss, (std::vector<float>{-1.0f, 0.75f}));
  auto sig = run_unary<float>(TensorOpTest("Sigmoid", 13), {-1000.0f, 0.0f, 1000.0f});
  EXPECT_EQ(sig, (std::vector<float>{0.0f, 0.5f, 1.0f}));
}

TEST(UnaryOps, RoundIsHalfToEven) {
  auto r = run_unary<float>(TensorOpTest("Round", 11), {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 2.4f});
  EXPECT_EQ(r, (std::vector<float>{0.0f, 2.0f, 2.0f, -0.0f, -2.0f, 2.0f}));
  EXPECT_TRUE(std::signbit(r[3]));
}

TEST(UnaryOps, HalfTypesRoundOnceFromFloat) {
  std::vector<Float16> in = {math::to_float16(1.0f), math::to_float16(-2.0f)};
  auto out = TensorOpTest("Exp", 13).input<Float16>({2}, in).run();
  ASSERT_TRUE(out.is_ok());
  auto v = values<Float16>(out.value()[0]);
  EXPECT_EQ(v[0].bits, math::to_float16(2.718281828f).bits);
  EXPECT_EQ(v[1].bits, math::to_float16(0.135335283f).bits);
  std::vector<BFloat16> b = {math::to_bfloat16(4.0f)};
  auto sq = TensorOpTest("Sqrt", 13).input<BFloat16>({1}, b).run();
  ASSERT_TRUE(sq.is_ok());
  EXPECT_EQ(math::to_float(values<BFloat16>(sq.value()[0])[0]), 2.0f);
}

TEST(UnaryOps, ResultsDoNotDependOnThreadCount) {
  std::vector<float> x(100000);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.001f - 50.0f;
  auto one = run_unary<float>(TensorOpTest("Tanh", 13), x, 1);
  auto four = run_unary<float>(TensorOpTest("Tanh", 13), x, 4);
  EXPECT_EQ(one, four);
}

TEST(UnaryOps, RejectsUnsupportedTypesAndArity) {
  auto bad_type = TensorOpTest("Sin", 7).input<int32_t>({1}, {1}).run();
  EXPECT_FALSE(bad_type.is_ok());
  EXPECT_EQ(bad_type.status().code(), StatusCode::kNotImplemented);
  auto neg_unsigned = TensorOpTest("Neg", 13).input<uint8_t>({1}, {1}).run();
  EXPECT_FALSE(neg_unsigned.is_ok());
  auto no_input = TensorOpTest("Relu", 14).run();
  EXPECT_FALSE(no_input.is_ok());
  auto celu_zero = TensorOpTest("Celu", 12).attr("alpha", 0.0f).input<float>({1}, {1.0f}).run();
  EXPECT_FALSE(celu_zero.is_ok());
}

}  // namespace
}  // namespace twinrt
