#include "tensor_op_harness.h"

namespace twinrt::tensor_testing {
namespace {

TEST(TensorReshape, ZeroCopiesAndMinusOneInfers) {
  std::vector<float> x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  auto out = TensorOpTest("Reshape", 13).input<float>({2, 3, 4}, x).input<int64_t>({3}, {0, -1, 2}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at(0).shape(), (std::vector<int64_t>{2, 6, 2}));
  EXPECT_EQ(values<float>(out->at(0)), x);
}

TEST(TensorReshape, IsAViewOfTheInput) {
  Tensor x = make<int32_t>({2, 2}, {1, 2, 3, 4});
  auto out = TensorOpTest("Reshape", 13).input(x).input<int64_t>({1}, {4}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at(0).raw(), x.raw());
}

TEST(TensorReshape, AllowZeroKeepsZero) {
  auto out = TensorOpTest("Reshape", 14).attr("allowzero", 1).input<float>({0, 3, 4}, {})
                 .input<int64_t>({3}, {3, 4, 0}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at(0).shape(), (std::vector<int64_t>{3, 4, 0}));
}

TEST(TensorReshape, ShapeAttributeBeforeOpset5) {
  auto out = TensorOpTest("Reshape", 1).attr("shape", std::vector<int64_t>{3, 2})
                 .input<float>({6}, {1, 2, 3, 4, 5, 6}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at(0).shape(), (std::vector<int64_t>{3, 2}));
}

TEST(TensorReshape, RejectsBadShapes) {
  auto wrong_count = TensorOpTest("Reshape", 13).input<float>({2, 3}, {1, 2, 3, 4, 5, 6})
                         .input<int64_t>({1}, {5}).run();
  EXPECT_FALSE(wrong_count.is_ok());
  auto two_minus_ones = TensorOpTest("Reshape", 13).input<float>({2, 3}, {1, 2, 3, 4, 5, 6})
                            .input<int64_t>({2}, {-1, -1}).run();
  EXPECT_FALSE(two_minus_ones.is_ok());
  auto zero_past_rank = TensorOpTest("Reshape", 13).input<float>({6}, {1, 2, 3, 4, 5, 6})
                            .input<int64_t>({2}, {3, 0}).run();
  EXPECT_FALSE(zero_past_rank.is_ok());
}

TEST(TensorReshape, InfersSymbolicMinusOne) {
  auto types = TensorOpTest("Reshape", 13)
                   .input_type(DataType::kFloat, ir::Shape{sym("batch"), dim(3), dim(4)})
                   .input<int64_t>({2}, {-1, 12}, /*constant=*/true)
                   .infer();
  ASSERT_TRUE(types.is_ok()) << types.status().message();
  ASSERT_TRUE(types->at(0).shape);
  EXPECT_EQ(*types->at(0).shape, (ir::Shape{sym("batch"), dim(12)}));

  auto cancel = TensorOpTest("Reshape", 13)
                    .input_type(DataType::kFloat, ir::Shape{sym("batch"), sym("seq"), dim(8)})
                    .input<int64_t>({4}, {0, 0, 2, -1}, true)
                    .infer();
  ASSERT_TRUE(cancel.is_ok()) << cancel.status().message();
  EXPECT_EQ(*cancel->at(0).shape, (ir::Shape{sym("batch"), sym("seq"), dim(2), dim(4)}));
}

TEST(TensorReshape, InfersRankFromShapeLength) {
  auto types = TensorOpTest("Reshape", 13)
                   .input_type(DataType::kFloat, ir::Shape{sym("n"), dim(4)})
                   .input_type(DataType::kInt64, ir::Shape{dim(3)})
                   .infer();
  ASSERT_TRUE(types.is_ok()) << types.status().message();
  ASSERT_TRUE(types->at(0).shape);
  EXPECT_EQ(types->at(0).shape->size(), 3u);
}

TEST(TensorFlatten, CollapsesAroundAxis) {
  std::vector<float> x(24, 1.0f);
  auto out = TensorOpTest("Flatten", 13).attr("axis", -1).input<float>({2, 3, 4}, x).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at(0).shape(), (std::vector<int64_t>{6, 4}));
  auto zero = TensorOpTest("Flatten", 13).attr("axis", 0).input<float>({2, 3, 4}, x).run();
  ASSERT_TRUE(zero.is_ok());
  EXPECT_EQ(zero->at(0).shape(), (std::vector<int64_t>{1, 24}));
  EXPECT_FALSE(TensorOpTest("Flatten", 13).attr("axis", 4).input<float>({2, 3, 4}, x).run().is_ok());
}

TEST(TensorFlatten, InfersSymbolicOuter) {
  auto types = TensorOpTest("Flatten", 13)
                   .input_type(DataType::kFloat, ir::Shape{sym("batch"), dim(3), dim(4)})
                   .infer();
  ASSERT_TRUE(types.is_ok());
  EXPECT_EQ(*types->at(0).shape, (ir::Shape{sym("batch"), dim(12)}));
}

}  // namespace
}  // namespace twinrt::tensor_testing
