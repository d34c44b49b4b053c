#include "nn_op_harness.h"

namespace twinrt::testing {
namespace {

TEST(NnQuant, QuantizeRoundsHalfToEvenAndSaturates) {
  auto u8 = OpTest("QuantizeLinear", 13).input<float>({5}, {0, 1.5f, 2.5f, -1, 300}).input<float>({}, {1})
                .input<uint8_t>({}, {0}).run(Mode::kDefault);
  ASSERT_TRUE(u8.is_ok()) << u8.status().message();
  EXPECT_EQ(values_of<uint8_t>(u8->at(0)), (std::vector<uint8_t>{0, 2, 2, 0, 255}));
  auto i8 = OpTest("QuantizeLinear", 13).input<float>({5}, {0, 1.5f, 2.5f, -1, 300}).input<float>({}, {1})
                .input<int8_t>({}, {-1}).run(Mode::kDefault);
  ASSERT_TRUE(i8.is_ok()) << i8.status().message();
  EXPECT_EQ(values_of<int8_t>(i8->at(0)), (std::vector<int8_t>{-1, 1, 1, -2, 127}));
  auto no_zero = OpTest("QuantizeLinear", 13).input<float>({1}, {3}).input<float>({}, {2}).run(Mode::kDefault);
  ASSERT_TRUE(no_zero.is_ok());
  EXPECT_EQ(values_of<uint8_t>(no_zero->at(0)), (std::vector<uint8_t>{2}));  // 1.5 -> 2, uint8 by default
}

TEST(NnQuant, PerAxis) {
  auto q = OpTest("QuantizeLinear", 13).attr("axis", 0).input<float>({2, 2}, {1, 2, 3, 4}).input<float>({2}, {1, 2})
               .input<uint8_t>({2}, {0, 10}).run(Mode::kDefault);
  ASSERT_TRUE(q.is_ok()) << q.status().message();
  EXPECT_EQ(values_of<uint8_t>(q->at(0)), (std::vector<uint8_t>{1, 2, 12, 12}));
  auto d = OpTest("DequantizeLinear", 13).attr("axis", 1).input<int8_t>({1, 2}, {4, -4}).input<float>({2}, {0.5f, 2})
               .input<int8_t>({2}, {0, -5}).run(Mode::kDefault);
  ASSERT_TRUE(d.is_ok()) << d.status().message();
  expect_close(d->at(0), {1, 2}, {2, 2});
  auto bad = OpTest("QuantizeLinear", 13).attr("axis", 1).input<float>({2, 2}, {1, 2, 3, 4}).input<float>({3}, {1, 2, 3}).run(Mode::kDefault);
  EXPECT_FALSE(bad.is_ok());
}

TEST(NnQuant, Dequantize) {
  auto d = OpTest("DequantizeLinear", 13).input<uint8_t>({3}, {0, 128, 255}).input<float>({}, {0.5f})
               .input<uint8_t>({}, {128}).run(Mode::kDefault);
  ASSERT_TRUE(d.is_ok()) << d.status().message();
  expect_close(d->at(0), {3}, {-64, 0, 63.5f});
  auto i32 = OpTest("DequantizeLinear", 13).input<int32_t>({1}, {7}).input<float>({}, {2}).run(Mode::kDefault);
  ASSERT_TRUE(i32.is_ok());
  expect_close(i32->at(0), {1}, {14});
}

TEST(NnQuant, DynamicQuantize) {
  // Range [-255, 255]: scale 2, zero point round_half_even(127.5) = 128.
  auto r = OpTest("DynamicQuantizeLinear", 11).outputs(3).input<float>({3}, {0, 255, -255}).run(Mode::kDefault);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(values_of<uint8_t>(r->at(0)), (std::vector<uint8_t>{128, 255, 0}));
  expect_close(r->at(1), {}, {2});
  EXPECT_EQ(values_of<uint8_t>(r->at(2)), (std::vector<uint8_t>{128}));
}

TEST(NnQuant, MatMulIntegerZeroPoints) {
  auto r = OpTest("MatMulInteger", 10).input<uint8_t>({2, 2}, {1, 2, 3, 4}).input<uint8_t>({2, 2}, {1, 0, 0, 1})
               .input<uint8_t>({}, {1}).run(Mode::kDefault);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(values_of<int32_t>(r->at(0)), (std::vector<int32_t>{0, 1, 2, 3}));
  // int8 B with one zero point per column.
  auto c = OpTest("MatMulInteger", 10).input<uint8_t>({1, 2}, {1, 2}).input<int8_t>({2, 2}, {-1, 3, 5, 7})
               .missing_input().input<int8_t>({2}, {-1, 1}).run(Mode::kDefault);
  ASSERT_TRUE(c.is_ok()) << c.status().message();
  EXPECT_EQ(values_of<int32_t>(c->at(0)), (std::vector<int32_t>{12, 14}));
}

TEST(NnQuant, QLinearMatMul) {
  auto r = OpTest("QLinearMatMul", 10).input<uint8_t>({1, 2}, {2, 4}).input<float>({}, {0.5f}).input<uint8_t>({}, {0})
               .input<uint8_t>({2, 1}, {2, 2}).input<float>({}, {0.5f}).input<uint8_t>({}, {0})
               .input<float>({}, {0.25f}).input<uint8_t>({}, {10}).run(Mode::kDefault);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(values_of<uint8_t>(r->at(0)), (std::vector<uint8_t>{22}));
}

TEST(NnQuant, ConvIntegerPadsWithZeroPoint) {
  auto r = OpTest("ConvInteger", 10).attr("pads", std::vector<int64_t>{1, 1}).input<uint8_t>({1, 1, 3}, {1, 2, 3})
               .input<uint8_t>({1, 1, 2}, {1, 1}).input<uint8_t>({}, {1}).run(Mode::kDefault);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(values_of<int32_t>(r->at(0)), (std::vector<int32_t>{0, 1, 3, 2}));
}

TEST(NnQuant, QLinearConvWithBias) {
  auto r = OpTest("QLinearConv", 10).input<uint8_t>({1, 1, 3}, {2, 4, 6}).input<float>({}, {0.5f}).input<uint8_t>({}, {0})
               .input<uint8_t>({1, 1, 2}, {2, 2}).input<float>({}, {0.5f}).input<uint8_t>({}, {0})
               .input<float>({}, {1.0f}).input<uint8_t>({}, {0}).input<int32_t>({1}, {4}).run(Mode::kDefault);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(values_of<uint8_t>(r->at(0)), (std::vector<uint8_t>{4, 6}));
  auto bad_bias = OpTest("QLinearConv", 10).input<uint8_t>({1, 1, 3}, {2, 4, 6}).input<float>({}, {0.5f}).input<uint8_t>({}, {0})
                      .input<uint8_t>({1, 1, 2}, {2, 2}).input<float>({}, {0.5f}).input<uint8_t>({}, {0})
                      .input<float>({}, {1.0f}).input<uint8_t>({}, {0}).input<float>({1}, {4}).run(Mode::kDefault);
  EXPECT_FALSE(bad_bias.is_ok());
}

}  // namespace
}  // namespace twinrt::testing
