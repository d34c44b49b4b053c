#include "nn_op_harness.h"

namespace twinrt::testing {
namespace {

using Ints = std::vector<int64_t>;

TEST(NnPool, MaxPoolIndicesRowAndColumnMajor) {
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  for (int64_t order : {0, 1}) {
    auto r = OpTest("MaxPool", 12).attr("kernel_shape", Ints{2, 2}).attr("storage_order", order).outputs(2)
                 .input<float>({1, 1, 3, 3}, x).run(Mode::kDefault);
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    expect_close(r->at(0), {1, 1, 2, 2}, {5, 6, 8, 9});
    EXPECT_EQ(values_of<int64_t>(r->at(1)), order == 0 ? Ints({4, 5, 7, 8}) : Ints({4, 7, 5, 8}));
  }
}

TEST(NnPool, MaxPoolDilationsAndUint8) {
  auto r = OpTest("MaxPool", 12).attr("kernel_shape", Ints{2}).attr("dilations", Ints{2})
               .input<uint8_t>({1, 1, 5}, {1, 5, 2, 4, 3}).run(Mode::kReference);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(values_of<uint8_t>(r->at(0)), (std::vector<uint8_t>{2, 5, 3}));
}

TEST(NnPool, AveragePoolPaddingCounts) {
  for (Mode mode : kBothModes) {
    auto excl = OpTest("AveragePool", 11).attr("kernel_shape", Ints{2}).attr("pads", Ints{1, 1})
                    .input<float>({1, 1, 3}, {1, 2, 3}).run(mode);
    ASSERT_TRUE(excl.is_ok()) << excl.status().message();
    expect_close(excl->at(0), {1, 1, 4}, {1, 1.5f, 2.5f, 3});
    auto incl = OpTest("AveragePool", 11).attr("kernel_shape", Ints{2}).attr("pads", Ints{1, 1}).attr("count_include_pad", 1)
                    .input<float>({1, 1, 3}, {1, 2, 3}).run(mode);
    ASSERT_TRUE(incl.is_ok()) << incl.status().message();
    expect_close(incl->at(0), {1, 1, 4}, {0.5f, 1.5f, 2.5f, 1.5f});
  }
}

TEST(NnPool, CeilModeAndSameUpper) {
  auto ceil = OpTest("AveragePool", 11).attr("kernel_shape", Ints{2}).attr("strides", Ints{2}).attr("ceil_mode", 1)
                  .input<float>({1, 1, 5}, {1, 2, 3, 4, 5}).run(Mode::kDefault);
  ASSERT_TRUE(ceil.is_ok()) << ceil.status().message();
  expect_close(ceil->at(0), {1, 1, 3}, {1.5f, 3.5f, 5});
  // SAME_UPPER, kernel 2 over 3: one pad at the end.
  auto same = OpTest("MaxPool", 12).attr("kernel_shape", Ints{2}).attr("auto_pad", "SAME_UPPER")
                  .input<float>({1, 1, 3}, {3, 1, 2}).run(Mode::kDefault);
  ASSERT_TRUE(same.is_ok()) << same.status().message();
  expect_close(same->at(0), {1, 1, 3}, {3, 2, 2});
}

TEST(NnPool, LpPoolAndGlobals) {
  auto lp = OpTest("LpPool", 11).attr("kernel_shape", Ints{2}).input<float>({1, 1, 3}, {3, -4, 0}).run(Mode::kReference);
  ASSERT_TRUE(lp.is_ok()) << lp.status().message();
  expect_close(lp->at(0), {1, 1, 2}, {5, 4});
  std::vector<float> x = {1, 2, 3, 6, -1, -2, -3, -10};
  auto avg = OpTest("GlobalAveragePool", 1).input<float>({1, 2, 2, 2}, x).run(Mode::kReference);
  ASSERT_TRUE(avg.is_ok()) << avg.status().message();
  expect_close(avg->at(0), {1, 2, 1, 1}, {3, -4});
  auto mx = OpTest("GlobalMaxPool", 1).input<float>({1, 2, 2, 2}, x).run(Mode::kDefault);
  ASSERT_TRUE(mx.is_ok()) << mx.status().message();
  expect_close(mx->at(0), {1, 2, 1, 1}, {6, -1});
  auto l1 = OpTest("GlobalLpPool", 2).attr("p", 1).input<float>({1, 2, 4}, x).run(Mode::kDefault);
  ASSERT_TRUE(l1.is_ok()) << l1.status().message();
  expect_close(l1->at(0), {1, 2, 1}, {12, 16});
}

TEST(NnPool, MaxUnpool) {
  // Indices into the unpooled 1x1x4 shape (kernel 2, stride 2).
  auto r = OpTest("MaxUnpool", 11).attr("kernel_shape", Ints{2}).attr("strides", Ints{2})
               .input<float>({1, 1, 2}, {7, 9}).input<int64_t>({1, 1, 2}, {1, 2}).run(Mode::kDefault);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  expect_close(r->at(0), {1, 1, 4}, {0, 7, 9, 0});
  auto wide = OpTest("MaxUnpool", 11).attr("kernel_shape", Ints{2}).attr("strides", Ints{2})
                  .input<float>({1, 1, 2}, {7, 9}).input<int64_t>({1, 1, 2}, {1, 3}).input<int64_t>({3}, {1, 1, 5})
                  .run(Mode::kDefault);
  ASSERT_TRUE(wide.is_ok()) << wide.status().message();
  expect_close(wide->at(0), {1, 1, 5}, {0, 7, 0, 9, 0});
  auto bad = OpTest("MaxUnpool", 11).attr("kernel_shape", Ints{2}).attr("strides", Ints{2})
                 .input<float>({1, 1, 2}, {7, 9}).input<int64_t>({1, 1, 2}, {1, 4}).run(Mode::kDefault);
  EXPECT_FALSE(bad.is_ok());
}

TEST(NnPool, BadAttributesAreErrors) {
  EXPECT_FALSE(OpTest("MaxPool", 12).input<float>({1, 1, 3}, {1, 2, 3}).run(Mode::kDefault).is_ok());
  EXPECT_FALSE(OpTest("MaxPool", 12).attr("kernel_shape", Ints{2}).attr("strides", Ints{0})
                   .input<float>({1, 1, 3}, {1, 2, 3}).run(Mode::kDefault).is_ok());
  EXPECT_FALSE(OpTest("AveragePool", 11).attr("kernel_shape", Ints{4}).input<float>({1, 1, 3}, {1, 2, 3}).run(Mode::kDefault).is_ok());
  EXPECT_FALSE(OpTest("AveragePool", 11).attr("kernel_shape", Ints{2}).input<uint8_t>({1, 1, 3}, {1, 2, 3}).run(Mode::kDefault).is_ok());
}

}  // namespace
}  // namespace twinrt::testing
