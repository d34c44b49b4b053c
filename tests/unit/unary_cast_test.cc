// Cast and CastLike: rounding, saturation, wrapping, bool and string conversions,
// against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernels/math/half.h"
#include "tensor_op_harness.h"

namespace twinrt {
namespace {

using tensor_testing::TensorOpTest;
using tensor_testing::values;

template <class To, class From>
std::vector<To> cast(std::vector<From> in, int opset = 13) {
  auto out = TensorOpTest("Cast", opset)
                 .attr("to", static_cast<int64_t>(dtype_of<To>()))
                 .input<From>({static_cast<int64_t>(in.size())}, in)
                 .run();
  EXPECT_TRUE(out.is_ok()) << out.status().message();
  return out.is_ok() ? values<To>(out.value()[0]) : std::vector<To>{};
}

TEST(Cast, FloatToBFloat16RoundsToNearestEven) {
  // 0x3ef5eeb0: the dropped half 0xeeb0 is above 0x8000, so the result rounds up
  // (ONNX 1.12's test data truncates to 0x3ef5; see docs/notes/cast.md).
  std::vector<float> in = {math::bits_float(0x3ef5eeb0u), math::bits_float(0x3ef535b8u),
                           math::bits_float(0x3f808000u), math::bits_float(0x3f818000u)};
  auto out = cast<BFloat16>(in);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].bits, 0x3ef6);
  EXPECT_EQ(out[1].bits, 0x3ef5);
  EXPECT_EQ(out[2].bits, 0x3f80);  // tie, to even
  EXPECT_EQ(out[3].bits, 0x3f82);  // tie, to even
}

TEST(Cast, DoubleToFloat16RoundsOnce) {
  // 1 + 2^-11 + 2^-40 lies just above the midpoint between the halves 1 and 1 + 2^-10.
  // Rounding to float first would land exactly on the midpoint and then round down.
  auto out = cast<Float16>(std::vector<double>{1 + 0x1p-11 + 0x1p-40, 1 + 0x1p-11, 70000.0, -1e-9});
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].bits, 0x3c01);
  EXPECT_EQ(out[1].bits, 0x3c00);
  EXPECT_EQ(out[2].bits, 0x7c00);  // overflow to inf
  EXPECT_EQ(out[3].bits, 0x8000);  // underflow to -0
}

TEST(Cast, FloatToIntegerTruncatesAndSaturates) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(cast<int32_t>(std::vector<float>{-2.7f, 2.7f, 1e10f, -1e10f, nan}),
            (std::vector<int32_t>{-2, 2, INT32_MAX, INT32_MIN, 0}));
  EXPECT_EQ(cast<uint8_t>(std::vector<double>{-1.5, 255.9, 256.0}), (std::vector<uint8_t>{0, 255, 255}));
  EXPECT_EQ(cast<int64_t>(std::vector<float>{9.3e18f, -std::numeric_limits<float>::infinity()}),
            (std::vector<int64_t>{INT64_MAX, INT64_MIN}));
}

TEST(Cast, IntegerToIntegerWraps) {
  EXPECT_EQ(cast<int8_t>(std::vector<int32_t>{300, -129, 5}), (std::vector<int8_t>{44, 127, 5}));
  EXPECT_EQ(cast<uint8_t>(std::vector<int64_t>{-1, 256}), (std::vector<uint8_t>{255, 0}));
  EXPECT_EQ(cast<float>(std::vector<int64_t>{16777217}), (std::vector<float>{16777216.0f}));
}

TEST(Cast, BoolConversions) {
  EXPECT_EQ(cast<bool>(std::vector<float>{0.0f, -0.0f, 0.5f, std::numeric_limits<float>::quiet_NaN()}),
            (std::vector<bool>{false, false, true, true}));
  EXPECT_EQ(cast<double>(std::vector<bool>{true, false}), (std::vector<double>{1.0, 0.0}));
  EXPECT_EQ(cast<std::string>(std::vector<bool>{true, false}), (std::vector<std::string>{"1", "0"}));
  EXPECT_EQ(cast<bool>(std::vector<std::string>{"true", "FALSE", "0", "2.5"}),
            (std::vector<bool>{true, false, false, true}));
}

TEST(Cast, StringToFloat) {
  auto out = cast<float>(std::vector<std::string>{"3.14", "1e-5", "-1E8", "+.5", "5.", "+INF", "-inf",
                                                  "NaN", "1e400", "Infinity"});
  ASSERT_EQ(out.size(), 10u);
  EXPECT_EQ(out[0], 3.14f);
  EXPECT_EQ(out[1], 1e-5f);
  EXPECT_EQ(out[2], -1e8f);
  EXPECT_EQ(out[3], 0.5f);
  EXPECT_EQ(out[4], 5.0f);
  EXPECT_EQ(out[5], std::numeric_limits<float>::infinity());
  EXPECT_EQ(out[6], -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(out[7]));
  EXPECT_EQ(out[8], std::numeric_limits<float>::infinity());
  EXPECT_EQ(out[9], std::numeric_limits<float>::infinity());
}

TEST(Cast, StringToIntegers) {
  EXPECT_EQ(cast<int64_t>(std::vector<std::string>{"123", "-5", "+7", "2.7", "1e3", "-9223372036854775808"}),
            (std::vector<int64_t>{123, -5, 7, 2, 1000, INT64_MIN}));
  EXPECT_EQ(cast<int8_t>(std::vector<std::string>{"300", "-300"}), (std::vector<int8_t>{127, -128}));
  EXPECT_EQ(cast<uint8_t>(std::vector<std::string>{"-1", "18446744073709551615"}),
            (std::vector<uint8_t>{0, 255}));
}

TEST(Cast, BadStringsAreErrorsNamingTheText) {
  for (const char* bad : {"abc", " 1", "1 ", "", "1e", "--1", "0x10", "."}) {
    auto out = TensorOpTest("Cast", 13)
                   .attr("to", static_cast<int64_t>(DataType::kFloat))
                   .input<std::string>({1}, {bad})
                   .run();
    ASSERT_FALSE(out.is_ok()) << bad;
    EXPECT_NE(out.status().message().find(std::string("\"") + bad + "\""), std::string::npos)
        << out.status().message();
  }
}

TEST(Cast, NumbersToShortestStrings) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(cast<std::string>(std::vector<float>{0.039187793f, 1e-5f, 100.0f, 0.1f, -inf, inf,
                                                 std::numeric_limits<float>::quiet_NaN()}),
            (std::vector<std::string>{"0.039187793", "1e-05", "100", "0.1", "-INF", "INF", "NaN"}));
  EXPECT_EQ(cast<std::string>(std::vector<double>{0.1, 1.0 / 3}),
            (std::vector<std::string>{"0.1", "0.3333333333333333"}));
  EXPECT_EQ(cast<std::string>(std::vector<Float16>{math::to_float16(0.1f), math::to_float16(65504.0f)}),
            (std::vector<std::string>{"0.1", "65500"}));
  EXPECT_EQ(cast<std::string>(std::vector<int8_t>{-128, 7}), (std::vector<std::string>{"-128", "7"}));
  EXPECT_EQ(cast<std::string>(std::vector<uint64_t>{18446744073709551615u}),
            (std::vector<std::string>{"18446744073709551615"}));
}

TEST(Cast, OpsetOneNamesTheTypeAsAString) {
  auto out = TensorOpTest("Cast", 1).attr("to", "INT32").input<float>({2}, {1.9f, -1.9f}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<int32_t>(out.value()[0]), (std::vector<int32_t>{1, -1}));
  EXPECT_FALSE(TensorOpTest("Cast", 1).attr("to", "REAL").input<float>({1}, {1.0f}).run().is_ok());
}

TEST(Cast, RejectsUnknownOrMissingTarget) {
  EXPECT_FALSE(TensorOpTest("Cast", 13).input<float>({1}, {1.0f}).run().is_ok());
  EXPECT_FALSE(TensorOpTest("Cast", 13).attr("to", int64_t{99}).input<float>({1}, {1.0f}).run().is_ok());
  auto complex = TensorOpTest("Cast", 13).attr("to", static_cast<int64_t>(DataType::kComplex64))
                     .input<float>({1}, {1.0f}).run();
  ASSERT_FALSE(complex.is_ok());
  EXPECT_EQ(complex.status().code(), StatusCode::kNotImplemented);
}

TEST(Cast, CastLikeTakesTheSecondInputsType) {
  auto out = TensorOpTest("CastLike", 15)
                 .input<double>({3}, {1.5, -2.5, 1e300})
                 .input<float>({1}, {0.0f})
                 .run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<float>(out.value()[0]),
            (std::vector<float>{1.5f, -2.5f, std::numeric_limits<float>::infinity()}));
}

TEST(Cast, SameTypeSharesTheInput) {
  Tensor x = tensor_testing::make<float>({2}, {1.0f, 2.0f});
  auto out = TensorOpTest("Cast", 13).attr("to", static_cast<int64_t>(DataType::kFloat)).input(x).run();
  ASSERT_TRUE(out.is_ok());
  EXPECT_EQ(out.value()[0].raw(), x.raw());
}

}  // namespace
}  // namespace twinrt
