// Batches of a MatMul that share one B merged into one product (nn::merge_batches_sharing_b):
// which layouts merge, and that every output keeps its bits, each batch against the same
// product computed alone, in every mode at 1 and 2 threads.
#include <gtest/gtest.h>

#include "ops/nn/matmul_layout.h"
#include "passes_test_util.h"

namespace twinrt {
namespace {

using namespace control_testing;

nn::MatMulLayout merged(std::vector<int64_t> a, std::vector<int64_t> b, nn::MatMulPerms perms = {}) {
  auto l = nn::matmul_layout(a, b, perms);
  EXPECT_TRUE(l.is_ok()) << l.status().message();
  nn::merge_batches_sharing_b(*l);
  return *l;
}

TEST(MatMulBatches, BatchesSharingBAreOneProduct) {
  const nn::MatMulLayout rows = merged({5, 1, 8}, {8, 3});
  EXPECT_EQ(rows.m, 5);
  EXPECT_EQ(rows.a_offsets.size(), 1u);
  EXPECT_EQ(rows.a_row_stride, 8);
  EXPECT_EQ(rows.c_row_stride, 3);
  EXPECT_EQ(merged({2, 3, 4, 8}, {8, 3}).m, 24);
  // ViT's projection: the stored [1, 197, 768] read as [197, 1, 768].
  const nn::MatMulLayout vit = merged({1, 197, 768}, {768, 2304}, {{1, 0, 2}, {}, {}});
  EXPECT_EQ(vit.m, 197);
  EXPECT_EQ(vit.a_row_stride, 768);
  EXPECT_EQ(merged({3, 1, 8}, {1, 8, 3}).m, 3);  // B's batch of one is shared too
}

TEST(MatMulBatches, OtherLayoutsStayBatched) {
  EXPECT_EQ(merged({5, 2, 8}, {5, 8, 3}).a_offsets.size(), 5u);  // a B per batch
  // A read across its stored rows: a batch's rows do not continue the previous one's.
  EXPECT_EQ(merged({4, 8, 2}, {8, 3}, {{0, 2, 1}, {}, {}}).a_offsets.size(), 4u);
  // The result written as [m, batch, n]: C's rows interleave the batches.
  EXPECT_EQ(merged({4, 2, 8}, {8, 3}, {{}, {}, {1, 0, 2}}).a_offsets.size(), 4u);
  EXPECT_EQ(merged({1, 2, 8}, {8, 3}).a_offsets.size(), 1u);
}

// y = Transpose(x, [1, 0, 2]) · W + bias + r: rows batches of one row each against a
// constant W, as ViT's projections (the Transpose is folded into the product's reads).
ir::Model projection(int64_t k, int64_t n, uint32_t seed) {
  ir::Graph g = graph({node("Transpose", {"x"}, {"xt"}, {ints_attr("perm", {1, 0, 2})}),
                       node("MatMul", {"xt", "w"}, {"p"}), node("Add", {"p", "bias"}, {"pb"}),
                       node("Add", {"pb", "r"}, {"y"})},
                      {tensor_info("x", DataType::kFloat), tensor_info("r", DataType::kFloat)},
                      {tensor_info("y", DataType::kFloat)});
  add_initializer(g, "w", random_floats({k, n}, seed, -1, 1));
  add_initializer(g, "bias", random_floats({n}, seed + 1, -1, 1));
  return model_of(std::move(g));
}

TEST(MatMulBatches, MergedBatchesKeepEachProductsBits) {
  const int64_t rows = 37, k = 300, n = 70;  // k past a block, n with a column tail
  const ir::Model m = projection(k, n, 5);
  const Tensor x = random_floats({1, rows, k}, 6), r = random_floats({rows, 1, n}, 7);
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference})
    for (int threads : {1, 2}) {
      ir::Model all = m;
      all.graph = std::make_shared<ir::Graph>(*m.graph);
      const Tensor y = run_model(std::move(all), mode, OptimizationLevel::kAll, {{"x", x}, {"r", r}}, threads);
      ASSERT_EQ(y.shape(), (std::vector<int64_t>{rows, 1, n}));
      for (int64_t i = 0; i < rows; i += 9) {  // row i alone: a batch of one
        ir::Model one = m;
        one.graph = std::make_shared<ir::Graph>(*m.graph);
        const Tensor xi = make<float>({1, 1, k}, std::vector<float>(x.data<float>() + i * k, x.data<float>() + (i + 1) * k));
        const Tensor ri = make<float>({1, 1, n}, std::vector<float>(r.data<float>() + i * n, r.data<float>() + (i + 1) * n));
        const Tensor yi = run_model(std::move(one), mode, OptimizationLevel::kAll, {{"x", xi}, {"r", ri}}, threads);
        const Tensor want = make<float>({1, 1, n}, std::vector<float>(y.data<float>() + i * n, y.data<float>() + (i + 1) * n));
        EXPECT_TRUE(same_bits(yi, want)) << "row " << i << ", " << mode_name(mode) << ", threads " << threads;
      }
    }
}

}  // namespace
}  // namespace twinrt
