// Resize and Upsample, with hand-computed samples.
#include "tensor_op_harness.h"

namespace twinrt::tensor_testing {
namespace {

TEST(TensorResize, NearestModesOnOneAxis) {
  // 1x4 -> 1x8, asymmetric: x_original = x / 2; ceil picks the right neighbour at .5
  const std::vector<float> x{1, 2, 3, 4};
  auto ceil = TensorOpTest("Resize", 13).attr("coordinate_transformation_mode", "asymmetric")
                  .attr("nearest_mode", "ceil").input<float>({1, 4}, x).missing_input().missing_input()
                  .input<int64_t>({2}, {1, 8}).run();
  ASSERT_TRUE(ceil.is_ok()) << ceil.status().message();
  EXPECT_EQ(values<float>(ceil->at(0)), (std::vector<float>{1, 2, 2, 3, 3, 4, 4, 4}));
  auto floor = TensorOpTest("Resize", 13).attr("coordinate_transformation_mode", "asymmetric")
                   .attr("nearest_mode", "floor").input<float>({1, 4}, x).missing_input().missing_input()
                   .input<int64_t>({2}, {1, 8}).run();
  ASSERT_TRUE(floor.is_ok());
  EXPECT_EQ(values<float>(floor->at(0)), (std::vector<float>{1, 1, 2, 2, 3, 3, 4, 4}));
}

TEST(TensorResize, LinearHalfPixelBothModes) {
  // [1, 3] upsampled x2 with half_pixel: x_original = (x + 0.5) / 2 - 0.5
  // -> -0.25 (clamped: 1), 0.25 (1.5), 0.75 (2.5), 1.25 (clamped: 3)
  for (Mode mode : {Mode::kDefault, Mode::kReference}) {
    auto out = TensorOpTest("Resize", 13).attr("mode", "linear").input<float>({1, 2}, {1, 3})
                   .missing_input().input<float>({2}, {1, 2}).run(mode);
    ASSERT_TRUE(out.is_ok()) << out.status().message();
    EXPECT_EQ(values<float>(out->at(0)), (std::vector<float>{1, 1.5f, 2.5f, 3}));
  }
}

TEST(TensorResize, StringsNearestAndInferredShape) {
  auto out = TensorOpTest("Resize", 13).input<std::string>({2}, {"a", "b"}).missing_input()
                 .input<float>({1}, {2}, /*constant=*/true).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<std::string>(out->at(0)), (std::vector<std::string>{"a", "a", "b", "b"}));
  auto t = TensorOpTest("Resize", 13).input_type(DataType::kFloat, ir::Shape{sym("n"), dim(3), dim(4), dim(4)})
               .missing_input().input<float>({4}, {1, 1, 2, 2}, true).infer();
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  EXPECT_EQ(*t->at(0).shape, (ir::Shape{sym("n"), dim(3), dim(8), dim(8)}));
}

TEST(TensorResize, RejectsBadScales) {
  EXPECT_FALSE(TensorOpTest("Resize", 13).input<float>({2}, {1, 2}).missing_input()
                   .input<float>({1}, {0}).run().is_ok());
  EXPECT_FALSE(TensorOpTest("Resize", 13).input<float>({2}, {1, 2}).missing_input()
                   .input<float>({2}, {1, 1}).run().is_ok());
}

TEST(TensorUpsample, NearestRepeatsAndScalesAttribute) {
  auto out = TensorOpTest("Upsample", 7).attr("scales", std::vector<float>{1, 3})
                 .input<int32_t>({1, 2}, {1, 2}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<int32_t>(out->at(0)), (std::vector<int32_t>{1, 1, 1, 2, 2, 2}));
}

}  // namespace
}  // namespace twinrt::tensor_testing
