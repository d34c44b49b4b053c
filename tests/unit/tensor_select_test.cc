// NonZero, TopK, Unique, Trilu, Compress, ReverseSequence, NonMaxSuppression.
#include <cmath>

#include "tensor_op_harness.h"

namespace twinrt::tensor_testing {
namespace {

TEST(TensorNonZero, CoordinatesRowMajor) {
  auto out = TensorOpTest("NonZero", 13).input<float>({2, 2}, {1, 0, -0.0f, 3}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at(0).shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values<int64_t>(out->at(0)), (std::vector<int64_t>{0, 1, 0, 1}));
  auto strings = TensorOpTest("NonZero", 13).input<std::string>({3}, {"", "a", ""}).run();
  ASSERT_TRUE(strings.is_ok());
  EXPECT_EQ(values<int64_t>(strings->at(0)), (std::vector<int64_t>{1}));
}

TEST(TensorTopK, TiesKeepLowerIndexFirst) {
  auto out = TensorOpTest("TopK", 11).outputs(2).input<float>({5}, {1, 3, 3, 0, 3}).input<int64_t>({1}, {3}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<float>(out->at(0)), (std::vector<float>{3, 3, 3}));
  EXPECT_EQ(values<int64_t>(out->at(1)), (std::vector<int64_t>{1, 2, 4}));
  auto smallest = TensorOpTest("TopK", 11).outputs(2).attr("largest", 0).attr("axis", 0)
                      .input<int32_t>({3, 2}, {5, 1, 2, 2, 9, 0}).input<int64_t>({1}, {2}).run();
  ASSERT_TRUE(smallest.is_ok());
  EXPECT_EQ(values<int32_t>(smallest->at(0)), (std::vector<int32_t>{2, 0, 5, 1}));
  EXPECT_EQ(values<int64_t>(smallest->at(1)), (std::vector<int64_t>{1, 2, 0, 0}));
  auto nan = TensorOpTest("TopK", 1).outputs(2).attr("k", 1).input<float>({3}, {1, NAN, 2}).run();
  ASSERT_TRUE(nan.is_ok());
  EXPECT_EQ(values<int64_t>(nan->at(1)), (std::vector<int64_t>{1}));
  EXPECT_FALSE(TensorOpTest("TopK", 11).outputs(2).input<float>({2}, {1, 2}).input<int64_t>({1}, {3}).run().is_ok());
}

TEST(TensorUnique, AllOutputsSortedAndUnsorted) {
  // ONNX doc example: [2, 1, 1, 3, 4, 3], sorted=0
  auto out = TensorOpTest("Unique", 11).attr("sorted", 0).outputs(4).input<float>({6}, {2, 1, 1, 3, 4, 3}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<float>(out->at(0)), (std::vector<float>{2, 1, 3, 4}));
  EXPECT_EQ(values<int64_t>(out->at(1)), (std::vector<int64_t>{0, 1, 3, 4}));
  EXPECT_EQ(values<int64_t>(out->at(2)), (std::vector<int64_t>{0, 1, 1, 2, 3, 2}));
  EXPECT_EQ(values<int64_t>(out->at(3)), (std::vector<int64_t>{1, 2, 2, 1}));
  // axis 0 on [[1,0,0],[1,0,0],[2,3,4]] -> [[1,0,0],[2,3,4]]
  auto rows = TensorOpTest("Unique", 11).attr("axis", 0).outputs(4)
                  .input<int32_t>({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 4}).run();
  ASSERT_TRUE(rows.is_ok());
  EXPECT_EQ(rows->at(0).shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<int32_t>(rows->at(0)), (std::vector<int32_t>{1, 0, 0, 2, 3, 4}));
  EXPECT_EQ(values<int64_t>(rows->at(2)), (std::vector<int64_t>{0, 0, 1}));
}

TEST(TensorTrilu, UpperLowerWithK) {
  const std::vector<int32_t> x{1, 2, 3, 4, 5, 6, 7, 8, 9};
  auto upper = TensorOpTest("Trilu", 14).input<int32_t>({3, 3}, x).input<int64_t>({}, {1}).run();
  ASSERT_TRUE(upper.is_ok()) << upper.status().message();
  EXPECT_EQ(values<int32_t>(upper->at(0)), (std::vector<int32_t>{0, 2, 3, 0, 0, 6, 0, 0, 0}));
  auto lower = TensorOpTest("Trilu", 14).attr("upper", 0).input<int32_t>({3, 3}, x).input<int64_t>({}, {-1}).run();
  ASSERT_TRUE(lower.is_ok());
  EXPECT_EQ(values<int32_t>(lower->at(0)), (std::vector<int32_t>{0, 0, 0, 4, 0, 0, 7, 8, 0}));
  auto huge_k = TensorOpTest("Trilu", 14).input<int32_t>({3, 3}, x).input<int64_t>({}, {INT64_MIN}).run();
  ASSERT_TRUE(huge_k.is_ok());
  EXPECT_EQ(values<int32_t>(huge_k->at(0)), x);
}

TEST(TensorCompress, AxisAndFlat) {
  auto axis = TensorOpTest("Compress", 11).attr("axis", 1).input<float>({2, 3}, {1, 2, 3, 4, 5, 6})
                  .input<bool>({2}, {false, true}).run();
  ASSERT_TRUE(axis.is_ok()) << axis.status().message();
  EXPECT_EQ(values<float>(axis->at(0)), (std::vector<float>{2, 5}));
  auto flat = TensorOpTest("Compress", 11).input<float>({2, 2}, {1, 2, 3, 4})
                  .input<bool>({4}, {true, false, false, true}).run();
  ASSERT_TRUE(flat.is_ok());
  EXPECT_EQ(values<float>(flat->at(0)), (std::vector<float>{1, 4}));
  EXPECT_FALSE(TensorOpTest("Compress", 11).attr("axis", 0).input<float>({1, 2}, {1, 2})
                   .input<bool>({2}, {true, true}).run().is_ok());
}

TEST(TensorReverseSequence, PerBatchLengths) {
  // time_axis 0, batch_axis 1: x[t][b] = 10t + b, lens [2, 0]
  auto out = TensorOpTest("ReverseSequence", 10).input<int32_t>({3, 2}, {0, 1, 10, 11, 20, 21})
                 .input<int64_t>({2}, {2, 0}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<int32_t>(out->at(0)), (std::vector<int32_t>{10, 1, 0, 11, 20, 21}));
  EXPECT_FALSE(TensorOpTest("ReverseSequence", 10).input<int32_t>({3, 2}, {0, 1, 10, 11, 20, 21})
                   .input<int64_t>({2}, {4, 0}).run().is_ok());
}

TEST(TensorNonMaxSuppression, SuppressesOverlapsInScoreOrder) {
  // boxes 0 and 1 overlap (IoU 0.81), box 2 is apart; scores favour box 1.
  auto out = TensorOpTest("NonMaxSuppression", 11)
                 .input<float>({1, 3, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 10, 1, 11})
                 .input<float>({1, 1, 3}, {0.8f, 0.9f, 0.3f})
                 .input<int64_t>({1}, {3}).input<float>({1}, {0.5f}).input<float>({1}, {0.0f}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<int64_t>(out->at(0)), (std::vector<int64_t>{0, 0, 1, 0, 0, 2}));
  auto limited = TensorOpTest("NonMaxSuppression", 11)
                     .input<float>({1, 3, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 10, 1, 11})
                     .input<float>({1, 1, 3}, {0.8f, 0.9f, 0.3f}).input<int64_t>({1}, {1}).run();
  ASSERT_TRUE(limited.is_ok());
  EXPECT_EQ(values<int64_t>(limited->at(0)), (std::vector<int64_t>{0, 0, 1}));
}

}  // namespace
}  // namespace twinrt::tensor_testing
