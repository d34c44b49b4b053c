// Slice, Gather, GatherElements, GatherND, Scatter*, with the examples of the ONNX docs.
#include <climits>

#include "tensor_op_harness.h"

namespace twinrt::tensor_testing {
namespace {

TEST(TensorSlice, DocExamples) {
  // data = [[1,2,3,4],[5,6,7,8]], axes=[0,1], starts=[1,0], ends=[2,3], steps=[1,2] -> [[5,7]]
  auto a = TensorOpTest("Slice", 13).input<float>({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})
               .input<int64_t>({2}, {1, 0}).input<int64_t>({2}, {2, 3})
               .input<int64_t>({2}, {0, 1}).input<int64_t>({2}, {1, 2}).run();
  ASSERT_TRUE(a.is_ok()) << a.status().message();
  EXPECT_EQ(a->at(0).shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(values<float>(a->at(0)), (std::vector<float>{5, 7}));
  // starts=[0,1], ends=[-1,1000] -> [[2,3,4]]
  auto b = TensorOpTest("Slice", 13).input<float>({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})
               .input<int64_t>({2}, {0, 1}).input<int64_t>({2}, {-1, 1000}).run();
  ASSERT_TRUE(b.is_ok()) << b.status().message();
  EXPECT_EQ(values<float>(b->at(0)), (std::vector<float>{2, 3, 4}));
}

TEST(TensorSlice, NegativeStepsAndClamping) {
  auto out = TensorOpTest("Slice", 13).input<int32_t>({5}, {0, 1, 2, 3, 4})
                 .input<int64_t>({1}, {INT64_MAX}).input<int64_t>({1}, {INT64_MIN})
                 .missing_input().input<int64_t>({1}, {-2}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<int32_t>(out->at(0)), (std::vector<int32_t>{4, 2, 0}));
  auto empty = TensorOpTest("Slice", 13).input<int32_t>({5}, {0, 1, 2, 3, 4})
                   .input<int64_t>({1}, {3}).input<int64_t>({1}, {1}).run();
  ASSERT_TRUE(empty.is_ok());
  EXPECT_EQ(empty->at(0).shape(), (std::vector<int64_t>{0}));
  EXPECT_FALSE(TensorOpTest("Slice", 13).input<int32_t>({5}, {0, 1, 2, 3, 4}).input<int64_t>({1}, {0})
                   .input<int64_t>({1}, {3}).missing_input().input<int64_t>({1}, {0}).run().is_ok());
}

TEST(TensorSlice, AttributesBeforeOpset10AndViews) {
  Tensor x = make<float>({3, 2}, {1, 2, 3, 4, 5, 6});
  auto out = TensorOpTest("Slice", 1).attr("starts", std::vector<int64_t>{1})
                 .attr("ends", std::vector<int64_t>{3}).attr("axes", std::vector<int64_t>{0}).input(x).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<float>(out->at(0)), (std::vector<float>{3, 4, 5, 6}));
  EXPECT_EQ(out->at(0).raw(), x.data<float>() + 2);  // contiguous rows: a view
}

TEST(TensorSlice, InfersSymbolicFullRange) {
  auto t = TensorOpTest("Slice", 13).input_type(DataType::kFloat, ir::Shape{sym("b"), dim(10)})
               .input<int64_t>({2}, {0, 2}, true).input<int64_t>({2}, {INT64_MAX, -1}, true).infer();
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  EXPECT_EQ(*t->at(0).shape, (ir::Shape{sym("b"), dim(7)}));
}

TEST(TensorGather, DocExamplesAndBadIndex) {
  // axis 0: data [[1,1.2],[2.3,3.4],[4.5,5.7]], indices [[0,1],[1,2]]
  auto a = TensorOpTest("Gather", 13).input<float>({3, 2}, {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f})
               .input<int64_t>({2, 2}, {0, 1, 1, 2}).run();
  ASSERT_TRUE(a.is_ok()) << a.status().message();
  EXPECT_EQ(a->at(0).shape(), (std::vector<int64_t>{2, 2, 2}));
  EXPECT_EQ(values<float>(a->at(0)), (std::vector<float>{1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f, 5.7f}));
  // axis 1 with negative index: data 3x3, indices [[0, -1]]
  auto b = TensorOpTest("Gather", 13).attr("axis", 1)
               .input<std::string>({2, 3}, {"a", "b", "c", "d", "e", "f"}).input<int32_t>({1, 2}, {0, -1}).run();
  ASSERT_TRUE(b.is_ok()) << b.status().message();
  EXPECT_EQ(b->at(0).shape(), (std::vector<int64_t>{2, 1, 2}));
  EXPECT_EQ(values<std::string>(b->at(0)), (std::vector<std::string>{"a", "c", "d", "f"}));
  auto bad = TensorOpTest("Gather", 13).input<float>({3}, {1, 2, 3}).input<int64_t>({1}, {3}).run();
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("out of range"), std::string::npos);
}

TEST(TensorGatherElements, DocExample) {
  // data [[1,2],[3,4]], indices [[0,0],[1,0]], axis 1 -> [[1,1],[4,3]]
  auto out = TensorOpTest("GatherElements", 13).attr("axis", 1).input<int32_t>({2, 2}, {1, 2, 3, 4})
                 .input<int64_t>({2, 2}, {0, 0, 1, 0}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<int32_t>(out->at(0)), (std::vector<int32_t>{1, 1, 4, 3}));
  EXPECT_FALSE(TensorOpTest("GatherElements", 13).attr("axis", 1).input<int32_t>({2, 2}, {1, 2, 3, 4})
                   .input<int64_t>({2, 2}, {0, 0, 2, 0}).run().is_ok());
}

TEST(TensorGatherNd, DocExamplesWithBatchDims) {
  // batch_dims 0: data [[[0,1],[2,3]],[[4,5],[6,7]]], indices [[0,1],[1,0]] -> [[2,3],[4,5]]
  auto a = TensorOpTest("GatherND", 13).input<int32_t>({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})
               .input<int64_t>({2, 2}, {0, 1, 1, 0}).run();
  ASSERT_TRUE(a.is_ok()) << a.status().message();
  EXPECT_EQ(a->at(0).shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values<int32_t>(a->at(0)), (std::vector<int32_t>{2, 3, 4, 5}));
  // batch_dims 1: indices [[1],[0]] -> [[2,3],[4,5]]
  auto b = TensorOpTest("GatherND", 13).attr("batch_dims", 1).input<int32_t>({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})
               .input<int64_t>({2, 1}, {1, 0}).run();
  ASSERT_TRUE(b.is_ok()) << b.status().message();
  EXPECT_EQ(values<int32_t>(b->at(0)), (std::vector<int32_t>{2, 3, 4, 5}));
}

TEST(TensorScatterElements, DocExamplesAndReduction) {
  // data zeros 3x3, indices [[1,0,2],[0,2,1]], updates [[1,1.1,1.2],[2,2.1,2.2]] axis 0
  auto a = TensorOpTest("ScatterElements", 13).input<float>({3, 3}, std::vector<float>(9, 0))
               .input<int64_t>({2, 3}, {1, 0, 2, 0, 2, 1})
               .input<float>({2, 3}, {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f}).run();
  ASSERT_TRUE(a.is_ok()) << a.status().message();
  EXPECT_EQ(values<float>(a->at(0)), (std::vector<float>{2.0f, 1.1f, 0, 1.0f, 0, 2.2f, 0, 2.1f, 1.2f}));
  // duplicates with add: data [[1,2,3,4,5]], indices [[1,1]], updates [[1.1,2.1]] axis 1
  auto b = TensorOpTest("ScatterElements", 16).attr("axis", 1).attr("reduction", "add")
               .input<float>({1, 5}, {1, 2, 3, 4, 5}).input<int64_t>({1, 2}, {1, 1})
               .input<float>({1, 2}, {1.1f, 2.1f}).run();
  ASSERT_TRUE(b.is_ok()) << b.status().message();
  EXPECT_FLOAT_EQ(values<float>(b->at(0))[1], 2.0f + 1.1f + 2.1f);
  EXPECT_FALSE(TensorOpTest("ScatterElements", 13).attr("reduction", "add").input<float>({1}, {1})
                   .input<int64_t>({1}, {0}).input<float>({1}, {1}).run().is_ok());
  EXPECT_FALSE(TensorOpTest("Scatter", 9).input<float>({2}, {1, 2}).input<int64_t>({1}, {-3})
                   .input<float>({1}, {1}).run().is_ok());
}

TEST(TensorScatterNd, DocExampleAndMultiply) {
  // data [1..8], indices [[4],[3],[1],[7]], updates [9,10,11,12] -> [1,11,3,10,9,6,7,12]
  auto a = TensorOpTest("ScatterND", 13).input<float>({8}, {1, 2, 3, 4, 5, 6, 7, 8})
               .input<int64_t>({4, 1}, {4, 3, 1, 7}).input<float>({4}, {9, 10, 11, 12}).run();
  ASSERT_TRUE(a.is_ok()) << a.status().message();
  EXPECT_EQ(values<float>(a->at(0)), (std::vector<float>{1, 11, 3, 10, 9, 6, 7, 12}));
  auto m = TensorOpTest("ScatterND", 16).attr("reduction", "mul").input<int32_t>({2, 2}, {1, 2, 3, 4})
               .input<int64_t>({2, 1}, {1, 1}).input<int32_t>({2, 2}, {2, 2, 3, 3}).run();
  ASSERT_TRUE(m.is_ok()) << m.status().message();
  EXPECT_EQ(values<int32_t>(m->at(0)), (std::vector<int32_t>{1, 2, 18, 24}));
}

}  // namespace
}  // namespace twinrt::tensor_testing
