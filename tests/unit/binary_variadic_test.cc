// Max, Min, Sum, Mean, Where, Clip: NaN propagation, broadcasting of several inputs,
// accumulation precision per mode, and the opset-dependent forms of Clip.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "kernels/math/half.h"
#include "tensor_op_harness.h"

namespace twinrt {
namespace {

using tensor_testing::TensorOpTest;
using tensor_testing::values;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(BinaryVariadic, MaxMinPropagateNaN) {
  auto mx = TensorOpTest("Max", 13).input<float>({3}, {1, kNaN, 5}).input<float>({3}, {kNaN, 2, 4}).run();
  ASSERT_TRUE(mx.is_ok()) << mx.status().message();
  auto y = values<float>(mx->at(0));
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_EQ(y[2], 5);
  auto mn = TensorOpTest("Min", 13).input<float>({2}, {kNaN, 3}).input<float>({2}, {1, 2}).run();
  ASSERT_TRUE(mn.is_ok());
  EXPECT_TRUE(std::isnan(values<float>(mn->at(0))[0]));
  EXPECT_EQ(values<float>(mn->at(0))[1], 2);
}

TEST(BinaryVariadic, BroadcastsEveryInput) {
  auto out = TensorOpTest("Min", 13)
                 .input<int32_t>({2, 1}, {5, -5})
                 .input<int32_t>({3}, {1, 7, 3})
                 .input<int32_t>({}, {4})
                 .run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at(0).shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<int32_t>(out->at(0)), (std::vector<int32_t>{1, 4, 3, -5, -5, -5}));
  auto one = TensorOpTest("Sum", 13).input<float>({2}, {1.5f, 2}).run();
  ASSERT_TRUE(one.is_ok());
  EXPECT_EQ(values<float>(one->at(0)), (std::vector<float>{1.5f, 2}));
}

TEST(BinaryVariadic, SumAccumulatesPerMode) {
  // 1e8 + 1 is 1e8 in float32, so the float fold loses the 1 that double keeps.
  auto make = [] {
    TensorOpTest t("Sum", 13);
    t.input<float>({1}, {1e8f}).input<float>({1}, {1}).input<float>({1}, {-1e8f});
    return t;
  };
  auto fast = make().run(Mode::kDefault);
  auto ref = make().run(Mode::kReference);
  ASSERT_TRUE(fast.is_ok() && ref.is_ok());
  EXPECT_EQ(values<float>(fast->at(0))[0], 0);
  EXPECT_EQ(values<float>(ref->at(0))[0], 1);
}

TEST(BinaryVariadic, MeanOfHalves) {
  auto out = TensorOpTest("Mean", 13)
                 .input<Float16>({1}, {math::to_float16(1)})
                 .input<Float16>({1}, {math::to_float16(2)})
                 .run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(math::to_float(out->at(0).data<Float16>()[0]), 1.5f);
}

TEST(BinaryWhere, SelectsWithBroadcasting) {
  auto out = TensorOpTest("Where", 16)
                 .input<bool>({2, 1}, {true, false})
                 .input<std::string>({2}, {"a", "b"})
                 .input<std::string>({}, {"z"})
                 .run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<std::string>(out->at(0)), (std::vector<std::string>{"a", "b", "z", "z"}));
  EXPECT_FALSE(TensorOpTest("Where", 16).input<int32_t>({1}, {1}).input<float>({1}, {1}).input<float>({1}, {2}).run().is_ok());
}

TEST(BinaryClip, BoundsAsInputs) {
  auto out = TensorOpTest("Clip", 13).input<int8_t>({4}, {-100, -1, 5, 100}).input<int8_t>({}, {-2})
                 .input<int8_t>({}, {50}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<int8_t>(out->at(0)), (std::vector<int8_t>{-2, -1, 5, 50}));
  // Only max given; NaN stays NaN.
  auto max_only = TensorOpTest("Clip", 13).input<float>({3}, {kNaN, 1, 9}).missing_input().input<float>({}, {2}).run();
  ASSERT_TRUE(max_only.is_ok()) << max_only.status().message();
  auto y = values<float>(max_only->at(0));
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_EQ(y[1], 1);
  EXPECT_EQ(y[2], 2);
  // min > max: everything becomes max.
  auto crossed = TensorOpTest("Clip", 13).input<float>({2}, {-5, 5}).input<float>({}, {3}).input<float>({}, {1}).run();
  ASSERT_TRUE(crossed.is_ok());
  EXPECT_EQ(values<float>(crossed->at(0)), (std::vector<float>{1, 1}));
  EXPECT_FALSE(TensorOpTest("Clip", 13).input<float>({1}, {0}).input<float>({2}, {1, 2}).run().is_ok());
}

TEST(BinaryClip, BoundsAsAttributesBeforeOpset11) {
  auto out = TensorOpTest("Clip", 6).attr("min", -0.5f).attr("max", 0.5f).input<float>({3}, {-1, 0.25f, 1}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<float>(out->at(0)), (std::vector<float>{-0.5f, 0.25f, 0.5f}));
}

}  // namespace
}  // namespace twinrt
