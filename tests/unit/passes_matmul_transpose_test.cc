// Transposes folded into a MatMul's reads and writes (fold_transpose_into_matmul) and a
// Mul or Div by a constant folded into its epilogue (fuse_matmul_scale): the bits of the
// separate ops in every mode, at 1 and 2 threads.
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "passes_test_util.h"

namespace twinrt {
namespace {

using namespace control_testing;

ir::Node named(ir::Node n, std::string name) {
  n.name = std::move(name);
  return n;
}

ir::Node transpose(std::string in, std::string out, std::vector<int64_t> perm) {
  return named(node("Transpose", {in}, {out}, {ints_attr("perm", std::move(perm))}), "t_" + out);
}

Tensor scalar(float v) { return make<float>({}, {v}); }

// Attention over heads as PyTorch exports it: q, k, v [batch, tokens, heads, size];
// y = Transpose(Softmax(Q · K^T / divisor) · V) with Q, K, V transposed into heads.
ir::Model attention(float divisor) {
  ir::Graph g = graph({transpose("q", "qh", {0, 2, 1, 3}), transpose("k", "kt", {0, 2, 3, 1}),
                       named(node("MatMul", {"qh", "kt"}, {"s"}), "scores"),
                       named(node("Div", {"s", "d"}, {"sd"}), "scale"),
                       named(node("Softmax", {"sd"}, {"p"}, {int_attr("axis", -1)}), "softmax"),
                       transpose("v", "vh", {0, 2, 1, 3}), named(node("MatMul", {"p", "vh"}, {"o"}), "context"),
                       transpose("o", "y", {0, 2, 1, 3})},
                      {tensor_info("q", DataType::kFloat), tensor_info("k", DataType::kFloat),
                       tensor_info("v", DataType::kFloat)},
                      {tensor_info("y", DataType::kFloat)});
  add_initializer(g, "d", scalar(divisor));
  return model_of(std::move(g));
}

std::map<std::string, Tensor> attention_feeds(std::vector<int64_t> shape, uint32_t seed) {
  return {{"q", random_floats(shape, seed, -2, 2)},
          {"k", random_floats(shape, seed + 1, -2, 2)},
          {"v", random_floats(shape, seed + 2, -2, 2)}};
}

// A model of its own graph (ir::Model shares its graph, which a session optimizes in place).
ir::Model copy_of(const ir::Model& m) {
  ir::Model copy = m;
  copy.graph = std::make_shared<ir::Graph>(*m.graph);
  return copy;
}

void expect_same_bits_as_separate_ops(const ir::Model& m, const std::map<std::string, Tensor>& feeds,
                                      const std::string& what) {
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference})
    for (int threads : {1, 2}) {
      const Tensor folded = run_model(copy_of(m), mode, OptimizationLevel::kAll, feeds, threads);
      const Tensor separate = run_model(copy_of(m), mode, OptimizationLevel::kNone, feeds);
      EXPECT_TRUE(same_bits(folded, separate)) << what << ", " << mode_name(mode) << ", threads " << threads;
    }
}

TEST(PassesMatMulTranspose, AttentionKeepsOnlyItsProductsAndSoftmax) {
  ir::Model m = attention(8.0f);
  passes::optimize(m, OptimizationLevel::kBasic, Mode::kExact);
  ASSERT_EQ(m.graph->nodes.size(), 3u);
  const ir::Node& scores = m.graph->nodes[0];
  EXPECT_EQ(scores.inputs, (std::vector<std::string>{"q", "k"}));
  EXPECT_EQ(scores.fused_perm_a, (std::vector<int64_t>{0, 2, 1, 3}));
  EXPECT_EQ(scores.fused_perm_b, (std::vector<int64_t>{0, 2, 3, 1}));
  EXPECT_TRUE(scores.fused_perm_y.empty());
  EXPECT_EQ(scores.fused_scale, 0.125f);
  EXPECT_EQ(scores.describe(), "node 'scores' + 't_qh' + 't_kt' + 'scale' (MatMul, fused)");
  const ir::Node& context = m.graph->nodes[2];
  EXPECT_EQ(context.inputs, (std::vector<std::string>{"p", "v"}));
  EXPECT_EQ(context.outputs, (std::vector<std::string>{"y"}));
  EXPECT_EQ(context.fused_perm_b, (std::vector<int64_t>{0, 2, 1, 3}));
  EXPECT_EQ(context.fused_perm_y, (std::vector<int64_t>{0, 2, 1, 3}));
}

// Head sizes below and above the tiles' widths, a token count that leaves partial tiles,
// one batch and two.
TEST(PassesMatMulTranspose, AttentionGivesTheSeparateOpsBits) {
  const std::vector<std::vector<int64_t>> shapes = {{1, 5, 3, 4}, {2, 37, 2, 24}, {1, 70, 3, 40}};
  uint32_t seed = 1;
  for (const auto& shape : shapes) {
    expect_same_bits_as_separate_ops(attention(8.0f), attention_feeds(shape, seed), shape_to_string(shape));
    seed += 3;
  }
}

TEST(PassesMatMulTranspose, DividesOnlyByPowersOfTwo) {
  for (float d : {3.0f, 0.0f, 1e-40f}) {
    ir::Model m = attention(d);
    passes::optimize(m, OptimizationLevel::kAll, Mode::kDefault);
    EXPECT_EQ(m.graph->nodes[0].fused_scale, 1.0f) << d;
    EXPECT_EQ(m.graph->nodes[1].op_type, "Div") << d;
    expect_same_bits_as_separate_ops(attention(d), attention_feeds({1, 9, 2, 8}, 5), "divisor " + std::to_string(d));
  }
  ir::Model m = attention(0.25f);
  passes::optimize(m, OptimizationLevel::kAll, Mode::kDefault);
  EXPECT_EQ(m.graph->nodes[0].fused_scale, 4.0f);
}

// y = c · (a · b) or (a · b) · c for a scalar constant c: any c, either side.
TEST(PassesMatMulTranspose, MulByAnyScalarOnEitherSide) {
  for (bool constant_first : {false, true}) {
    ir::Graph g = graph({node("MatMul", {"a", "b"}, {"p"}),
                         node("Mul", constant_first ? std::vector<std::string>{"c", "p"} : std::vector<std::string>{"p", "c"},
                              {"y"})},
                        {tensor_info("a", DataType::kFloat), tensor_info("b", DataType::kFloat)},
                        {tensor_info("y", DataType::kFloat)});
    add_initializer(g, "c", scalar(0.3f));
    ir::Model optimized = model_of(g);
    passes::optimize(optimized, OptimizationLevel::kAll, Mode::kDefault);
    ASSERT_EQ(optimized.graph->nodes.size(), 1u);
    EXPECT_EQ(optimized.graph->nodes[0].fused_scale, 0.3f);
    expect_same_bits_as_separate_ops(model_of(g), {{"a", random_floats({3, 20, 33}, 7)}, {"b", random_floats({33, 41}, 8)}},
                                     constant_first ? "c * p" : "p * c");
  }
}

// Not folded: a scalar that a feed may replace, a scale that broadcasts (rank 1), a
// Transpose that something else reads too, one that moves the result's last axis, and a
// transposed constant (the MatMul packs constant weights in their stored layout).
TEST(PassesMatMulTranspose, LeavesWhatItCannotFold) {
  ir::Graph g = graph({transpose("a", "at", {1, 0}), node("MatMul", {"at", "b"}, {"p"}), node("Mul", {"p", "c"}, {"s"}),
                       node("Add", {"s", "at"}, {"u"}), transpose("w", "wt", {1, 0}), node("MatMul", {"u", "wt"}, {"q"}),
                       transpose("q", "qt", {1, 0}), node("Add", {"qt", "b"}, {"v"}), node("MatMul", {"v", "b"}, {"q2"}),
                       node("Mul", {"q2", "e"}, {"y"})},
                      {tensor_info("a", DataType::kFloat), tensor_info("b", DataType::kFloat),
                       tensor_info("c", DataType::kFloat)},
                      {tensor_info("y", DataType::kFloat)});
  add_initializer(g, "c", scalar(2.0f));
  add_initializer(g, "e", make<float>({1}, {2.0f}));
  add_initializer(g, "w", random_floats({6, 6}, 3));
  ir::Model optimized = model_of(g);
  passes::optimize(optimized, OptimizationLevel::kAll, Mode::kDefault);
  int transposes = 0, scaled = 0;
  for (const ir::Node& n : optimized.graph->nodes) {
    transposes += n.op_type == "Transpose";
    scaled += n.fused_scale != 1.0f;
    EXPECT_TRUE(n.fused_perm_a.empty() && n.fused_perm_b.empty() && n.fused_perm_y.empty()) << n.describe();
  }
  EXPECT_EQ(transposes, 3);
  EXPECT_EQ(scaled, 0);
  expect_same_bits_as_separate_ops(model_of(g),
                                   {{"a", random_floats({6, 6}, 4)}, {"b", random_floats({6, 6}, 5)}, {"c", scalar(3.0f)}},
                                   "unfolded");
}

// A result written through a Transpose, then a residual Add (fuse_residual_add, which
// wants constant weights) and a Relu in the epilogue; A's last two axes swapped (its depth
// strided); batches against a matrix.
TEST(PassesMatMulTranspose, StridedOperandsWithAResidual) {
  ir::Graph g = graph({transpose("a", "at", {0, 2, 1}), node("MatMul", {"at", "b"}, {"p"}),
                       transpose("p", "pt", {1, 0, 2}), node("Add", {"pt", "r"}, {"s"}), node("Relu", {"s"}, {"y"})},
                      {tensor_info("a", DataType::kFloat), tensor_info("r", DataType::kFloat)},
                      {tensor_info("y", DataType::kFloat)});
  add_initializer(g, "b", random_floats({29, 50}, 10));
  ir::Model optimized = model_of(g);
  passes::optimize(optimized, OptimizationLevel::kAll, Mode::kDefault);
  ASSERT_EQ(optimized.graph->nodes.size(), 1u);
  EXPECT_TRUE(optimized.graph->nodes[0].fused_residual);
  for (const std::vector<int64_t>& r : {std::vector<int64_t>{45, 3, 50}, std::vector<int64_t>{50}})
    expect_same_bits_as_separate_ops(
        model_of(g), {{"a", random_floats({3, 29, 45}, 9)}, {"r", random_floats(r, 11)}},
        "residual " + shape_to_string(r));
}

// Integer products read through the folded Transposes too (the reference kernels, B copied
// into rows).
TEST(PassesMatMulTranspose, IntegerProducts) {
  ir::Graph g = graph({transpose("a", "at", {1, 0}), transpose("b", "bt", {1, 0}), node("MatMul", {"at", "bt"}, {"p"}),
                       transpose("p", "y", {0, 1})},
                      {tensor_info("a", DataType::kInt32), tensor_info("b", DataType::kInt32)},
                      {tensor_info("y", DataType::kInt32)});
  std::vector<int32_t> a(7 * 5), b(9 * 7);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int32_t>(i * 37 % 23) - 11;
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int32_t>(i * 13 % 17) - 8;
  const std::map<std::string, Tensor> feeds = {{"a", make<int32_t>({7, 5}, a)}, {"b", make<int32_t>({9, 7}, b)}};
  ir::Model optimized = model_of(g);
  passes::optimize(optimized, OptimizationLevel::kAll, Mode::kDefault);
  ASSERT_EQ(optimized.graph->nodes.size(), 1u);
  // y[i][j] = sum_p a[p][i] * b[j][p].
  std::vector<int32_t> want(5 * 9, 0);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 9; ++j)
      for (int p = 0; p < 7; ++p) want[static_cast<size_t>(i * 9 + j)] += a[static_cast<size_t>(p * 5 + i)] * b[static_cast<size_t>(j * 7 + p)];
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference}) {
    const Tensor y = run_model(model_of(g), mode, OptimizationLevel::kAll, feeds);
    EXPECT_EQ(values_of<int32_t>(y), want) << mode_name(mode);
    EXPECT_EQ(y.shape(), (std::vector<int64_t>{5, 9}));
  }
}

}  // namespace
}  // namespace twinrt
