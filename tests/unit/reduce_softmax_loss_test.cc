// Softmax/LogSoftmax/Hardmax per opset, and the NLL / softmax cross-entropy losses
// (values from the ONNX spec's examples and hand computation).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tensor_op_harness.h"

namespace twinrt {
namespace {

using tensor_testing::TensorOpTest;
using tensor_testing::values;

TEST(ReduceSoftmax, Opset13RunsAlongOneAxisOlderOpsetsFlatten) {
  // x[i, j, k] = k for a [1, 2, 2] tensor, axis 1.
  std::vector<float> x = {0, 1, 0, 1};
  auto along = TensorOpTest("Softmax", 13).attr("axis", 1).input<float>({1, 2, 2}, x).run();
  ASSERT_TRUE(along.is_ok()) << along.status().message();
  for (float v : values<float>(along->at(0))) EXPECT_FLOAT_EQ(v, 0.5f);  // equal pairs along dim 1

  auto flat = TensorOpTest("Softmax", 11).attr("axis", 1).input<float>({1, 2, 2}, x).run();
  ASSERT_TRUE(flat.is_ok());
  const float e = std::exp(1.0f), s = 2 + 2 * e;
  auto y = values<float>(flat->at(0));
  EXPECT_NEAR(y[0], 1 / s, 1e-6);
  EXPECT_NEAR(y[1], e / s, 1e-6);
}

TEST(ReduceSoftmax, LargeAndInfiniteInputs) {
  const float inf = std::numeric_limits<float>::infinity();
  auto out = TensorOpTest("Softmax", 13).input<float>({3}, {1000, 1000, -inf}).run();
  ASSERT_TRUE(out.is_ok());
  EXPECT_EQ(values<float>(out->at(0)), (std::vector<float>{0.5f, 0.5f, 0}));
  auto log = TensorOpTest("LogSoftmax", 13).input<float>({2}, {1000, 1000}).run(Mode::kReference);
  ASSERT_TRUE(log.is_ok());
  for (float v : values<float>(log->at(0))) EXPECT_FLOAT_EQ(v, -std::log(2.0f));
}

TEST(ReduceSoftmax, HardmaxMarksTheFirstMaximum) {
  auto out = TensorOpTest("Hardmax", 13).attr("axis", 0).input<float>({3, 2}, {1, 7, 3, 7, 3, 0}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<float>(out->at(0)), (std::vector<float>{0, 1, 1, 0, 0, 0}));
}

// The spec's NegativeLogLikelihoodLoss examples: N, C, d1 = 2, 3, 2.
const std::vector<float> kNllInput = {1, 2, 2, 2, 3, 2, 0, 1, 2, 2, 1, 2};
const std::vector<int64_t> kNllTarget = {2, 1, 0, 2};
const std::vector<float> kNllWeight = {0.2f, 0.3f, 0.1f};

TEST(ReduceLoss, NllSpecExamples) {
  auto none = TensorOpTest("NegativeLogLikelihoodLoss", 13).attr("reduction", "none")
                  .input<float>({2, 3, 2}, kNllInput).input<int64_t>({2, 2}, kNllTarget).run();
  ASSERT_TRUE(none.is_ok()) << none.status().message();
  EXPECT_EQ(values<float>(none->at(0)), (std::vector<float>{-3, -2, 0, -2}));

  auto sum = TensorOpTest("NegativeLogLikelihoodLoss", 13).attr("reduction", "sum")
                 .input<float>({2, 3, 2}, kNllInput).input<int64_t>({2, 2}, kNllTarget)
                 .input<float>({3}, kNllWeight).run();
  ASSERT_TRUE(sum.is_ok());
  EXPECT_EQ(sum->at(0).shape(), std::vector<int64_t>{});
  EXPECT_NEAR(values<float>(sum->at(0))[0], -1.1f, 1e-6);

  auto mean = TensorOpTest("NegativeLogLikelihoodLoss", 13)
                  .input<float>({2, 3, 2}, kNllInput).input<int64_t>({2, 2}, kNllTarget)
                  .input<float>({3}, kNllWeight).run(Mode::kReference);
  ASSERT_TRUE(mean.is_ok());
  EXPECT_NEAR(values<float>(mean->at(0))[0], -1.1f / 0.7f, 1e-6);  // -1.57...
}

TEST(ReduceLoss, NllIgnoreIndexAndBadTargets) {
  // Target 1 at [0, 1] is ignored: mean over the other three, weights 1.
  auto ii = TensorOpTest("NegativeLogLikelihoodLoss", 13).attr("ignore_index", 1)
                .input<float>({2, 3, 2}, kNllInput).input<int64_t>({2, 2}, kNllTarget).run();
  ASSERT_TRUE(ii.is_ok()) << ii.status().message();
  EXPECT_NEAR(values<float>(ii->at(0))[0], (-3.0f - 0.0f - 2.0f) / 3, 1e-6);

  auto out_of_range = TensorOpTest("NegativeLogLikelihoodLoss", 13)
                          .input<float>({2, 3, 2}, kNllInput).input<int64_t>({2, 2}, {2, 3, 0, 2}).run();
  ASSERT_FALSE(out_of_range.is_ok());
  EXPECT_NE(out_of_range.status().message().find("target value 3"), std::string::npos);
  EXPECT_FALSE(TensorOpTest("NegativeLogLikelihoodLoss", 13)
                   .input<float>({2, 3, 2}, kNllInput).input<int64_t>({2, 3}, {0, 0, 0, 0, 0, 0}).run().is_ok());
}

TEST(ReduceLoss, SoftmaxCrossEntropyWithLogProb) {
  // Two classes with equal scores: log_prob = -log 2 everywhere, loss = log 2.
  auto out = TensorOpTest("SoftmaxCrossEntropyLoss", 13).outputs(2)
                 .input<float>({2, 2}, {3, 3, -1, -1}).input<int32_t>({2}, {0, 1}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_NEAR(values<float>(out->at(0))[0], std::log(2.0f), 1e-6);
  for (float v : values<float>(out->at(1))) EXPECT_NEAR(v, -std::log(2.0f), 1e-6);

  auto weighted = TensorOpTest("SoftmaxCrossEntropyLoss", 13).attr("reduction", "none")
                      .input<float>({2, 2}, {0, 0, 0, 0}).input<int64_t>({2}, {1, 0})
                      .input<float>({2}, {2, 0.5f}).run();
  ASSERT_TRUE(weighted.is_ok());
  auto y = values<float>(weighted->at(0));
  EXPECT_NEAR(y[0], 0.5f * std::log(2.0f), 1e-6);
  EXPECT_NEAR(y[1], 2 * std::log(2.0f), 1e-6);
}

}  // namespace
}  // namespace twinrt
