// Reductions, ArgMax/ArgMin and CumSum: axes handling per opset, empty sets, integer
// results, accumulation precision per mode.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tensor_op_harness.h"

namespace twinrt {
namespace {

using tensor_testing::TensorOpTest;
using tensor_testing::values;

constexpr float kInf = std::numeric_limits<float>::infinity();

// 0..23 as a [2, 3, 4] tensor.
std::vector<float> iota24() {
  std::vector<float> v(24);
  for (int i = 0; i < 24; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);
  return v;
}

TEST(ReduceOps, NonAdjacentAxesAndKeepdims) {
  auto out = TensorOpTest("ReduceSum", 11).attr("axes", std::vector<int64_t>{0, -1}).attr("keepdims", 0)
                 .input<float>({2, 3, 4}, iota24()).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at(0).shape(), (std::vector<int64_t>{3}));
  // dim 1 index j: sum over i, k of 12i + 4j + k = 2*(0+1+2+3) + 12*4 + 8*4j
  EXPECT_EQ(values<float>(out->at(0)), (std::vector<float>{60, 92, 124}));

  auto keep = TensorOpTest("ReduceMax", 13).attr("axes", std::vector<int64_t>{1})
                  .input<float>({2, 3, 4}, iota24()).run();
  ASSERT_TRUE(keep.is_ok());
  EXPECT_EQ(keep->at(0).shape(), (std::vector<int64_t>{2, 1, 4}));
  EXPECT_EQ(values<float>(keep->at(0)), (std::vector<float>{8, 9, 10, 11, 20, 21, 22, 23}));
}

TEST(ReduceOps, AxesInputFromOpset13ForReduceSum) {
  auto out = TensorOpTest("ReduceSum", 13).input<float>({2, 2}, {1, 2, 3, 4}).input<int64_t>({1}, {-2}, true).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at(0).shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(values<float>(out->at(0)), (std::vector<float>{4, 6}));
  // No axes: all dims; noop_with_empty_axes: the input unchanged.
  auto all = TensorOpTest("ReduceSum", 13).attr("keepdims", 0).input<float>({2, 2}, {1, 2, 3, 4}).run();
  ASSERT_TRUE(all.is_ok());
  EXPECT_EQ(all->at(0).shape(), std::vector<int64_t>{});
  EXPECT_EQ(values<float>(all->at(0)), (std::vector<float>{10}));
  auto noop = TensorOpTest("ReduceSum", 13).attr("noop_with_empty_axes", 1).input<float>({2, 2}, {1, 2, 3, 4})
                  .input<int64_t>({0}, {}).run();
  ASSERT_TRUE(noop.is_ok());
  EXPECT_EQ(values<float>(noop->at(0)), (std::vector<float>{1, 2, 3, 4}));
}

TEST(ReduceOps, RejectsBadAxes) {
  EXPECT_FALSE(TensorOpTest("ReduceMean", 13).attr("axes", std::vector<int64_t>{2}).input<float>({2, 2}, {1, 2, 3, 4}).run().is_ok());
  EXPECT_FALSE(TensorOpTest("ReduceMean", 13).attr("axes", std::vector<int64_t>{1, -1}).input<float>({2, 2}, {1, 2, 3, 4}).run().is_ok());
}

TEST(ReduceOps, EmptySetGivesIdentity) {
  auto reduce_empty = [](const char* op) {
    auto out = TensorOpTest(op, 11).attr("axes", std::vector<int64_t>{1}).attr("keepdims", 0)
                   .input<float>({2, 0}, {}).run();
    EXPECT_TRUE(out.is_ok()) << op << ": " << out.status().message();
    return out.is_ok() ? values<float>(out->at(0)) : std::vector<float>{};
  };
  EXPECT_EQ(reduce_empty("ReduceSum"), (std::vector<float>{0, 0}));
  EXPECT_EQ(reduce_empty("ReduceProd"), (std::vector<float>{1, 1}));
  EXPECT_EQ(reduce_empty("ReduceMax"), (std::vector<float>{-kInf, -kInf}));
  EXPECT_EQ(reduce_empty("ReduceMin"), (std::vector<float>{kInf, kInf}));
  EXPECT_EQ(reduce_empty("ReduceLogSumExp"), (std::vector<float>{-kInf, -kInf}));
  EXPECT_EQ(reduce_empty("ReduceLogSum"), (std::vector<float>{-kInf, -kInf}));
  EXPECT_EQ(reduce_empty("ReduceL2"), (std::vector<float>{0, 0}));
  auto middle = TensorOpTest("ReduceSum", 11).attr("axes", std::vector<int64_t>{1}).input<float>({2, 0, 3}, {}).run();
  ASSERT_TRUE(middle.is_ok()) << middle.status().message();
  EXPECT_EQ(values<float>(middle->at(0)), std::vector<float>(6, 0));
  auto empty_out = TensorOpTest("ReduceMax", 11).attr("axes", std::vector<int64_t>{2}).input<float>({0, 2, 3}, {}).run();
  ASSERT_TRUE(empty_out.is_ok());
  EXPECT_EQ(empty_out->at(0).shape(), (std::vector<int64_t>{0, 2, 1}));
}

TEST(ReduceOps, LogSumExpDoesNotOverflow) {
  auto out = TensorOpTest("ReduceLogSumExp", 13).attr("keepdims", 0).input<float>({2}, {1000, 1000}).run();
  ASSERT_TRUE(out.is_ok());
  EXPECT_NEAR(values<float>(out->at(0))[0], 1000.0f + std::log(2.0f), 1e-3);
}

TEST(ReduceOps, NormsAndLogSum) {
  auto l1 = TensorOpTest("ReduceL1", 13).attr("keepdims", 0).input<float>({3}, {-3, 4, 0}).run();
  auto l2 = TensorOpTest("ReduceL2", 13).attr("keepdims", 0).input<float>({3}, {-3, 4, 0}).run();
  auto ss = TensorOpTest("ReduceSumSquare", 13).attr("keepdims", 0).input<float>({3}, {-3, 4, 0}).run();
  ASSERT_TRUE(l1.is_ok() && l2.is_ok() && ss.is_ok());
  EXPECT_EQ(values<float>(l1->at(0))[0], 7);
  EXPECT_EQ(values<float>(l2->at(0))[0], 5);
  EXPECT_EQ(values<float>(ss->at(0))[0], 25);
}

TEST(ReduceOps, IntegerResults) {
  auto mean = TensorOpTest("ReduceMean", 13).attr("keepdims", 0).input<int32_t>({2, 2}, {1, 2, -3, -4})
                  .attr("axes", std::vector<int64_t>{1}).run();
  ASSERT_TRUE(mean.is_ok()) << mean.status().message();
  EXPECT_EQ(values<int32_t>(mean->at(0)), (std::vector<int32_t>{1, -3}));  // truncated
  auto prod = TensorOpTest("ReduceProd", 13).attr("keepdims", 0).input<int64_t>({3}, {-2, 3, 4}).run();
  ASSERT_TRUE(prod.is_ok());
  EXPECT_EQ(values<int64_t>(prod->at(0)), (std::vector<int64_t>{-24}));
  auto mx = TensorOpTest("ReduceMax", 13).attr("keepdims", 0).input<uint8_t>({3}, {7, 250, 3}).run();
  ASSERT_TRUE(mx.is_ok());
  EXPECT_EQ(values<uint8_t>(mx->at(0)), (std::vector<uint8_t>{250}));
}

TEST(ReduceOps, AccumulatesInDoubleInReferenceMode) {
  auto make = [] {
    TensorOpTest t("ReduceSum", 11);
    t.attr("keepdims", 0).input<float>({3}, {1e8f, 1, -1e8f});
    return t;
  };
  auto fast = make().run(Mode::kDefault);
  auto ref = make().run(Mode::kReference);
  ASSERT_TRUE(fast.is_ok() && ref.is_ok());
  EXPECT_EQ(values<float>(fast->at(0))[0], 0);
  EXPECT_EQ(values<float>(ref->at(0))[0], 1);
}

TEST(ReduceOps, SameBitsWithAnyThreadCount) {
  const int64_t rows = 256, cols = 1024;
  std::vector<float> x(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 7) * 0.1f + static_cast<float>(i % 3);
  auto run = [&](int threads) {
    auto out = TensorOpTest("ReduceMean", 13).attr("axes", std::vector<int64_t>{1}).input<float>({rows, cols}, x)
                   .run(Mode::kDefault, threads);
    EXPECT_TRUE(out.is_ok()) << out.status().message();
    return out.is_ok() ? values<float>(out->at(0)) : std::vector<float>{};
  };
  const std::vector<float> one = run(1);
  EXPECT_EQ(run(4), one);
  ASSERT_EQ(one.size(), static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += x[static_cast<size_t>(r * cols + c)];
    EXPECT_NEAR(one[static_cast<size_t>(r)], sum / cols, 1e-4);
  }
}

TEST(ReduceOps, InfersSymbolicShapes) {
  auto types = TensorOpTest("ReduceMean", 13).attr("axes", std::vector<int64_t>{1}).attr("keepdims", 0)
                   .input_type(DataType::kFloat, ir::Shape{tensor_testing::sym("n"), tensor_testing::dim(3),
                                                           tensor_testing::dim(4)})
                   .infer();
  ASSERT_TRUE(types.is_ok()) << types.status().message();
  ASSERT_TRUE(types->at(0).shape);
  EXPECT_EQ(ir::shape_to_string(*types->at(0).shape), "[n,4]");
}

TEST(ReduceArg, TiesNaNAndLastIndex) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto first = TensorOpTest("ArgMax", 13).attr("axis", 1).input<float>({2, 3}, {1, 5, 5, nan, 2, nan}).run();
  ASSERT_TRUE(first.is_ok()) << first.status().message();
  EXPECT_EQ(first->at(0).shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(values<int64_t>(first->at(0)), (std::vector<int64_t>{1, 0}));
  auto last = TensorOpTest("ArgMin", 13).attr("axis", 0).attr("keepdims", 0).attr("select_last_index", 1)
                  .input<int32_t>({3, 2}, {1, 4, 0, 4, 0, 9}).run();
  ASSERT_TRUE(last.is_ok());
  EXPECT_EQ(values<int64_t>(last->at(0)), (std::vector<int64_t>{2, 1}));
  EXPECT_FALSE(TensorOpTest("ArgMax", 13).attr("axis", 1).input<float>({2, 0}, {}).run().is_ok());
}

TEST(ReduceCumSum, ExclusiveAndReverse) {
  // The spec's example: x = [1, 2, 3].
  auto run = [](int64_t exclusive, int64_t reverse) {
    auto out = TensorOpTest("CumSum", 14).attr("exclusive", exclusive).attr("reverse", reverse)
                   .input<float>({3}, {1, 2, 3}).input<int32_t>({}, {0}).run();
    EXPECT_TRUE(out.is_ok()) << out.status().message();
    return out.is_ok() ? values<float>(out->at(0)) : std::vector<float>{};
  };
  EXPECT_EQ(run(0, 0), (std::vector<float>{1, 3, 6}));
  EXPECT_EQ(run(1, 0), (std::vector<float>{0, 1, 3}));
  EXPECT_EQ(run(0, 1), (std::vector<float>{6, 5, 3}));
  EXPECT_EQ(run(1, 1), (std::vector<float>{5, 3, 0}));
  auto rows = TensorOpTest("CumSum", 14).input<int64_t>({2, 2}, {1, 2, 3, 4}).input<int64_t>({1}, {-1}).run();
  ASSERT_TRUE(rows.is_ok());
  EXPECT_EQ(values<int64_t>(rows->at(0)), (std::vector<int64_t>{1, 3, 3, 7}));
  EXPECT_FALSE(TensorOpTest("CumSum", 14).input<float>({2}, {1, 2}).input<int64_t>({}, {1}).run().is_ok());
}

}  // namespace
}  // namespace twinrt
