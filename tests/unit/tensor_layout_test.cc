// Squeeze, Unsqueeze, Transpose, Concat, Split.
#include "tensor_op_harness.h"

namespace twinrt::tensor_testing {
namespace {

TEST(TensorSqueeze, AxesAttributeAndInput) {
  auto old = TensorOpTest("Squeeze", 11).attr("axes", std::vector<int64_t>{0, -1})
                 .input<float>({1, 3, 1}, {1, 2, 3}).run();
  ASSERT_TRUE(old.is_ok()) << old.status().message();
  EXPECT_EQ(old->at(0).shape(), (std::vector<int64_t>{3}));
  auto now = TensorOpTest("Squeeze", 13).input<float>({1, 3, 1}, {1, 2, 3}).input<int64_t>({1}, {2}).run();
  ASSERT_TRUE(now.is_ok()) << now.status().message();
  EXPECT_EQ(now->at(0).shape(), (std::vector<int64_t>{1, 3}));
  auto empty_axes = TensorOpTest("Squeeze", 13).input<float>({1, 3, 1}, {1, 2, 3}).input<int64_t>({0}, {}).run();
  ASSERT_TRUE(empty_axes.is_ok()) << empty_axes.status().message();
  EXPECT_EQ(empty_axes->at(0).shape(), (std::vector<int64_t>{3}));  // as no axes (ONNX Runtime)
  auto all = TensorOpTest("Squeeze", 13).input<float>({1, 3, 1}, {1, 2, 3}).run();
  ASSERT_TRUE(all.is_ok());
  EXPECT_EQ(all->at(0).shape(), (std::vector<int64_t>{3}));
  EXPECT_FALSE(TensorOpTest("Squeeze", 13).input<float>({1, 3, 1}, {1, 2, 3}).input<int64_t>({1}, {1}).run().is_ok());
}

TEST(TensorSqueeze, InfersWithSymbolicDims) {
  auto t = TensorOpTest("Squeeze", 13).input_type(DataType::kFloat, ir::Shape{sym("b"), dim(1), dim(5)})
               .input<int64_t>({1}, {1}, true).infer();
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  EXPECT_EQ(*t->at(0).shape, (ir::Shape{sym("b"), dim(5)}));
}

TEST(TensorUnsqueeze, InsertsOnesInOutputPositions) {
  auto out = TensorOpTest("Unsqueeze", 13).input<float>({3, 4}, std::vector<float>(12, 0))
                 .input<int64_t>({3}, {4, 0, -3}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at(0).shape(), (std::vector<int64_t>{1, 3, 1, 4, 1}));
  auto old = TensorOpTest("Unsqueeze", 11).attr("axes", std::vector<int64_t>{1})
                 .input<int32_t>({2}, {7, 8}).run();
  ASSERT_TRUE(old.is_ok());
  EXPECT_EQ(old->at(0).shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_FALSE(TensorOpTest("Unsqueeze", 13).input<float>({2}, {1, 2}).input<int64_t>({2}, {0, 0}).run().is_ok());
  auto t = TensorOpTest("Unsqueeze", 13).input_type(DataType::kFloat, ir::Shape{sym("b"), dim(5)})
               .input<int64_t>({1}, {1}, true).infer();
  ASSERT_TRUE(t.is_ok());
  EXPECT_EQ(*t->at(0).shape, (ir::Shape{sym("b"), dim(1), dim(5)}));
}

TEST(TensorTranspose, PermutesAndDefaultsToReverse) {
  // x[i][j][k] = 100i + 10j + k, shape [2,3,2]
  std::vector<int32_t> x;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 2; ++k) x.push_back(100 * i + 10 * j + k);
  auto out = TensorOpTest("Transpose", 13).attr("perm", std::vector<int64_t>{1, 2, 0})
                 .input<int32_t>({2, 3, 2}, x).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at(0).shape(), (std::vector<int64_t>{3, 2, 2}));
  EXPECT_EQ(values<int32_t>(out->at(0)),
            (std::vector<int32_t>{0, 100, 1, 101, 10, 110, 11, 111, 20, 120, 21, 121}));
  auto rev = TensorOpTest("Transpose", 13).input<int32_t>({2, 3, 2}, x).run();
  ASSERT_TRUE(rev.is_ok());
  EXPECT_EQ(rev->at(0).shape(), (std::vector<int64_t>{2, 3, 2}));
  EXPECT_EQ(values<int32_t>(rev->at(0))[1], 100);  // y[0][0][1] = x[1][0][0]
}

TEST(TensorTranspose, LargeTiledMatchesIndexFormula) {
  // x[i][j][k] = i * 10000 + j * 100 + k, shape [5, 37, 19]; y = transpose(x, [2, 0, 1])
  std::vector<int32_t> x;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 37; ++j)
      for (int k = 0; k < 19; ++k) x.push_back(i * 10000 + j * 100 + k);
  auto out = TensorOpTest("Transpose", 13).attr("perm", std::vector<int64_t>{2, 0, 1})
                 .input<int32_t>({5, 37, 19}, x).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  const auto y = values<int32_t>(out->at(0));
  size_t n = 0;
  for (int k = 0; k < 19; ++k)
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 37; ++j) ASSERT_EQ(y[n++], i * 10000 + j * 100 + k);
}

// 1-byte elements (16 x 16 vector tiles) and 2-byte ones (the element loop), with full
// tiles and edges: [2, 35, 50] -> [2, 50, 35], the NCHW -> NHWC move of a uint8 image.
TEST(TensorTranspose, SmallElementsMatchIndexFormula) {
  std::vector<uint8_t> x8;
  std::vector<uint16_t> x16;
  for (int i = 0; i < 2 * 35 * 50; ++i) x8.push_back(static_cast<uint8_t>(i * 7 + i / 256)), x16.push_back(static_cast<uint16_t>(i));
  auto out8 = TensorOpTest("Transpose", 13).attr("perm", std::vector<int64_t>{0, 2, 1}).input<uint8_t>({2, 35, 50}, x8).run();
  auto out16 = TensorOpTest("Transpose", 13).attr("perm", std::vector<int64_t>{0, 2, 1}).input<uint16_t>({2, 35, 50}, x16).run();
  ASSERT_TRUE(out8.is_ok()) << out8.status().message();
  ASSERT_TRUE(out16.is_ok()) << out16.status().message();
  const auto y8 = values<uint8_t>(out8->at(0));
  const auto y16 = values<uint16_t>(out16->at(0));
  size_t n = 0;
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 50; ++k)
      for (int j = 0; j < 35; ++j, ++n) {
        const size_t at = static_cast<size_t>((i * 35 + j) * 50 + k);
        ASSERT_EQ(y8[n], x8[at]) << i << " " << j << " " << k;
        ASSERT_EQ(y16[n], x16[at]) << i << " " << j << " " << k;
      }
}

TEST(TensorTranspose, StringsAndBadPerm) {
  auto out = TensorOpTest("Transpose", 13)
                 .input<std::string>({2, 2}, {"a", "b", "c", "d"}).run();
  ASSERT_TRUE(out.is_ok());
  EXPECT_EQ(values<std::string>(out->at(0)), (std::vector<std::string>{"a", "c", "b", "d"}));
  EXPECT_FALSE(TensorOpTest("Transpose", 13).attr("perm", std::vector<int64_t>{0, 0})
                   .input<float>({2, 2}, {1, 2, 3, 4}).run().is_ok());
}

TEST(TensorConcat, JoinsAlongAxisAndInfers) {
  auto out = TensorOpTest("Concat", 13).attr("axis", -1)
                 .input<float>({2, 1}, {1, 2}).input<float>({2, 2}, {3, 4, 5, 6}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at(0).shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<float>(out->at(0)), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  EXPECT_FALSE(TensorOpTest("Concat", 13).attr("axis", 0)
                   .input<float>({2, 1}, {1, 2}).input<float>({2, 2}, {3, 4, 5, 6}).run().is_ok());
  auto t = TensorOpTest("Concat", 13).attr("axis", 1)
               .input_type(DataType::kFloat, ir::Shape{sym("b"), dim(2)})
               .input_type(DataType::kFloat, ir::Shape{ir::Dim{}, dim(3)}).infer();
  ASSERT_TRUE(t.is_ok());
  EXPECT_EQ(*t->at(0).shape, (ir::Shape{sym("b"), dim(5)}));
}

TEST(TensorSplit, ExplicitEqualAndUneven) {
  auto out = TensorOpTest("Split", 13).attr("axis", 1).outputs(2)
                 .input<int64_t>({2, 3}, {1, 2, 3, 4, 5, 6}).input<int64_t>({2}, {1, 2}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<int64_t>(out->at(0)), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(values<int64_t>(out->at(1)), (std::vector<int64_t>{2, 3, 5, 6}));
  auto eq = TensorOpTest("Split", 11).outputs(3).input<float>({6}, {1, 2, 3, 4, 5, 6}).run();
  ASSERT_TRUE(eq.is_ok());
  EXPECT_EQ(values<float>(eq->at(2)), (std::vector<float>{5, 6}));
  auto uneven = TensorOpTest("Split", 2).attr("split", std::vector<int64_t>{4, 0, 2}).outputs(3)
                    .input<float>({6}, {1, 2, 3, 4, 5, 6}).run();
  ASSERT_TRUE(uneven.is_ok());
  EXPECT_EQ(uneven->at(1).shape(), (std::vector<int64_t>{0}));
  EXPECT_FALSE(TensorOpTest("Split", 13).outputs(2).input<float>({6}, {1, 2, 3, 4, 5, 6})
                   .input<int64_t>({2}, {1, 2}).run().is_ok());
}

}  // namespace
}  // namespace twinrt::tensor_testing
