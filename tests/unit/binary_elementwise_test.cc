// Binary elementwise ops: broadcasting layouts, integer edge cases the conformance data
// does not reach (overflow, division by zero, shifts past the width), half-precision
// rounding, and opset < 7 broadcasting.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "kernels/math/half.h"
#include "ops/binary/broadcast_rows.h"
#include "tensor_op_harness.h"

namespace twinrt {
namespace {

using tensor_testing::TensorOpTest;
using tensor_testing::values;

template <class T>
std::vector<T> binary(const char* op, int64_t opset, std::vector<int64_t> sa, std::vector<T> a,
                      std::vector<int64_t> sb, std::vector<T> b) {
  auto out = TensorOpTest(op, opset)
                 .template input<T>(std::move(sa), std::move(a))
                 .template input<T>(std::move(sb), std::move(b))
                 .run();
  EXPECT_TRUE(out.is_ok()) << out.status().message();
  return out.is_ok() ? values<T>(out->at(0)) : std::vector<T>{};
}

TEST(BinaryBroadcastRows, MergesDimsThatBroadcastAlike) {
  BroadcastRows same({2, 3, 4}, {{2, 3, 4}, {2, 3, 4}});
  EXPECT_EQ(same.rows(), 1);
  EXPECT_EQ(same.row_len(), 24);

  BroadcastRows scalar({2, 3}, {{2, 3}, {}});
  EXPECT_EQ(scalar.rows(), 1);
  EXPECT_EQ(scalar.step(0), 1);
  EXPECT_EQ(scalar.step(1), 0);

  BroadcastRows bias({2, 3, 4}, {{2, 3, 4}, {4}});  // trailing-dims broadcast: rows of 4
  EXPECT_EQ(bias.rows(), 6);
  EXPECT_EQ(bias.row_len(), 4);
  EXPECT_EQ(bias.step(1), 1);

  BroadcastRows column({3, 4}, {{3, 4}, {3, 1}});
  std::vector<int64_t> starts;
  column.visit(0, column.rows(), [&](int64_t, const int64_t* off) { starts.push_back(off[1]); });
  EXPECT_EQ(starts, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(column.step(1), 0);

  BroadcastRows empty({2, 0, 3}, {{2, 0, 3}, {3}});
  EXPECT_EQ(empty.rows(), 0);
}

TEST(BinaryArithmetic, BroadcastsBothWays) {
  EXPECT_EQ(binary<float>("Add", 14, {2, 1}, {10, 20}, {3}, {1, 2, 3}),
            (std::vector<float>{11, 12, 13, 21, 22, 23}));
  EXPECT_EQ(binary<float>("Sub", 14, {}, {1}, {2}, {3, 5}), (std::vector<float>{-2, -4}));
  EXPECT_EQ(binary<float>("Mul", 14, {0, 3}, {}, {3}, {1, 2, 3}), std::vector<float>{});
}

TEST(BinaryArithmetic, IntegersWrapAndDivideSafely) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min(), kMax = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(binary<int32_t>("Add", 14, {1}, {kMax}, {1}, {1}), (std::vector<int32_t>{kMin}));
  EXPECT_EQ(binary<uint16_t>("Mul", 14, {1}, {65535}, {1}, {65535}), (std::vector<uint16_t>{1}));
  // Truncation toward zero, MIN/-1 wraps to MIN (a divisor of 0 is an error: session_strictness_test).
  EXPECT_EQ(binary<int32_t>("Div", 14, {4}, {-7, 7, 5, kMin}, {4}, {2, -2, 1, -1}),
            (std::vector<int32_t>{-3, -3, 5, kMin}));
  EXPECT_EQ(binary<uint8_t>("Div", 14, {2}, {7, 200}, {2}, {2, 3}), (std::vector<uint8_t>{3, 66}));
}

TEST(BinaryArithmetic, HalfTypesComputeInFloatAndRoundOnce) {
  const float tiny = std::ldexp(1.0f, -11);  // half of float16's spacing at 1.0: rounds to even
  auto out = TensorOpTest("Add", 14)
                 .input<Float16>({2}, {math::to_float16(1.0f), math::to_float16(1.0f)})
                 .input<Float16>({2}, {math::to_float16(tiny), math::to_float16(3 * tiny)})
                 .run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  const Float16* y = out->at(0).data<Float16>();
  EXPECT_EQ(math::to_float(y[0]), 1.0f);
  EXPECT_EQ(math::to_float(y[1]), 1.0f + 4 * tiny);

  auto bf = TensorOpTest("Mul", 14)
                .input<BFloat16>({1}, {math::to_bfloat16(3.0f)})
                .input<BFloat16>({1}, {math::to_bfloat16(0.5f)})
                .run();
  ASSERT_TRUE(bf.is_ok()) << bf.status().message();
  EXPECT_EQ(math::to_float(bf->at(0).data<BFloat16>()[0]), 1.5f);
}

TEST(BinaryArithmetic, RejectsMixedTypes) {
  auto out = TensorOpTest("Add", 14).input<float>({1}, {1}).input<int32_t>({1}, {1}).run();
  ASSERT_FALSE(out.is_ok());
  EXPECT_NE(out.status().message().find("same type"), std::string::npos) << out.status().message();
  EXPECT_FALSE(TensorOpTest("Add", 14).input<float>({2}, {1, 2}).input<float>({3}, {1, 2, 3}).run().is_ok());
}

TEST(BinaryMod, SignFollowsDivisorOrDividend) {
  EXPECT_EQ(binary<int32_t>("Mod", 13, {4}, {-4, 4, 5, 7}, {4}, {3, -3, 5, -1}),
            (std::vector<int32_t>{2, -2, 0, 0}));
  auto fmod = TensorOpTest("Mod", 13).attr("fmod", 1).input<int32_t>({2}, {-4, 4}).input<int32_t>({2}, {3, -3}).run();
  ASSERT_TRUE(fmod.is_ok());
  EXPECT_EQ(values<int32_t>(fmod->at(0)), (std::vector<int32_t>{-1, 1}));
  auto f = TensorOpTest("Mod", 13).attr("fmod", 1).input<float>({1}, {-5.5f}).input<float>({1}, {2}).run();
  ASSERT_TRUE(f.is_ok());
  EXPECT_EQ(values<float>(f->at(0)), (std::vector<float>{-1.5f}));
  EXPECT_FALSE(TensorOpTest("Mod", 13).input<float>({1}, {1}).input<float>({1}, {2}).run().is_ok());
}

TEST(BinaryBitShift, ShiftsPastTheWidthGiveZero) {
  auto left = TensorOpTest("BitShift", 11).attr("direction", "LEFT")
                  .input<uint8_t>({3}, {1, 255, 1}).input<uint8_t>({3}, {7, 1, 8}).run();
  ASSERT_TRUE(left.is_ok()) << left.status().message();
  EXPECT_EQ(values<uint8_t>(left->at(0)), (std::vector<uint8_t>{128, 254, 0}));
  auto right = TensorOpTest("BitShift", 11).attr("direction", "RIGHT")
                   .input<uint64_t>({2}, {1ull << 63, 5}).input<uint64_t>({2}, {63, 64}).run();
  ASSERT_TRUE(right.is_ok());
  EXPECT_EQ(values<uint64_t>(right->at(0)), (std::vector<uint64_t>{1, 0}));
  EXPECT_FALSE(TensorOpTest("BitShift", 11).input<uint8_t>({1}, {1}).input<uint8_t>({1}, {1}).run().is_ok());
}

TEST(BinaryPow, IntegerBasesAreExact) {
  EXPECT_EQ(binary<int64_t>("Pow", 15, {5}, {3, 2, 2, -1, -2}, {5}, {3, 62, -1, -3, 3}),
            (std::vector<int64_t>{27, int64_t{1} << 62, 0, -1, -8}));
  auto frac = TensorOpTest("Pow", 15).input<int32_t>({3}, {4, 3, 2}).input<float>({3}, {0.5f, 2.0f, -1.0f}).run();
  ASSERT_TRUE(frac.is_ok()) << frac.status().message();
  EXPECT_EQ(values<int32_t>(frac->at(0)), (std::vector<int32_t>{2, 9, 0}));
}

TEST(BinaryPow, FloatBaseWithIntegerExponent) {
  auto out = TensorOpTest("Pow", 15).input<float>({3}, {2, -2, 9}).input<int64_t>({3}, {10, 3, 0}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<float>(out->at(0)), (std::vector<float>{1024, -8, 1}));
}

TEST(BinaryCompare, NaNComparesFalse) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto eq = TensorOpTest("Equal", 13).input<float>({3}, {nan, 1, 2}).input<float>({3}, {nan, 1, 3}).run();
  ASSERT_TRUE(eq.is_ok());
  EXPECT_EQ(values<bool>(eq->at(0)), (std::vector<bool>{false, true, false}));
  auto ge = TensorOpTest("GreaterOrEqual", 16).input<float>({3}, {nan, 1, 2}).input<float>({}, {1}).run();
  ASSERT_TRUE(ge.is_ok());
  EXPECT_EQ(values<bool>(ge->at(0)), (std::vector<bool>{false, true, true}));
  auto bools = TensorOpTest("Equal", 13).input<bool>({2}, {true, false}).input<bool>({1}, {false}).run();
  ASSERT_TRUE(bools.is_ok());
  EXPECT_EQ(values<bool>(bools->at(0)), (std::vector<bool>{false, true}));
}

TEST(BinaryLogic, TruthTables) {
  std::vector<bool> a = {false, false, true, true}, b = {false, true, false, true};
  auto run = [&](const char* op) {
    auto out = TensorOpTest(op, 7).input<bool>({4}, a).input<bool>({4}, b).run();
    EXPECT_TRUE(out.is_ok());
    return out.is_ok() ? values<bool>(out->at(0)) : std::vector<bool>{};
  };
  EXPECT_EQ(run("And"), (std::vector<bool>{false, false, false, true}));
  EXPECT_EQ(run("Or"), (std::vector<bool>{false, true, true, true}));
  EXPECT_EQ(run("Xor"), (std::vector<bool>{false, true, true, false}));
}

TEST(BinaryLegacy, BroadcastAttributeAlignsBAtAxis) {
  // Add-6 with broadcast=1, axis=1: B (3) lines up with A's dim 1.
  auto out = TensorOpTest("Add", 6).attr("broadcast", 1).attr("axis", 1)
                 .input<float>({2, 3, 2}, {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1})
                 .input<float>({3}, {10, 20, 30}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<float>(out->at(0)), (std::vector<float>{10, 10, 20, 20, 30, 30, 11, 11, 21, 21, 31, 31}));
  // Different shapes need broadcast=1; without axis, B matches A's trailing dims.
  EXPECT_FALSE(TensorOpTest("Mul", 6).input<float>({2, 2}, {1, 2, 3, 4}).input<float>({2}, {10, 100}).run().is_ok());
  auto suffix = TensorOpTest("Mul", 6).attr("broadcast", 1).input<float>({2, 2}, {1, 2, 3, 4})
                    .input<float>({2}, {10, 100}).run();
  ASSERT_TRUE(suffix.is_ok());
  EXPECT_EQ(values<float>(suffix->at(0)), (std::vector<float>{10, 200, 30, 400}));
  auto bad_axis = TensorOpTest("Add", 6).attr("broadcast", 1).attr("axis", 2)
                      .input<float>({2, 3}, {1, 2, 3, 4, 5, 6}).input<float>({3}, {1, 2, 3}).run();
  EXPECT_FALSE(bad_axis.is_ok());
}

TEST(BinaryPRelu, SlopeBroadcastsOntoX) {
  auto out = TensorOpTest("PRelu", 16).input<float>({2, 2}, {-1, 2, -3, 4}).input<float>({2}, {0.5f, 0.25f}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<float>(out->at(0)), (std::vector<float>{-0.5f, 2, -1.5f, 4}));
  // Opset 6: a 1-D slope of the channel count applies along dim 1.
  auto legacy = TensorOpTest("PRelu", 6).input<float>({1, 2, 3}, {-1, -1, -1, -2, -2, -2})
                    .input<float>({2}, {0.5f, 2}).run();
  ASSERT_TRUE(legacy.is_ok()) << legacy.status().message();
  EXPECT_EQ(values<float>(legacy->at(0)), (std::vector<float>{-0.5f, -0.5f, -0.5f, -4, -4, -4}));
  // The slope may not grow X.
  EXPECT_FALSE(TensorOpTest("PRelu", 16).input<float>({2}, {1, 2}).input<float>({3, 2}, {1, 2, 3, 4, 5, 6}).run().is_ok());
}

}  // namespace
}  // namespace twinrt
