// MatMul + bias Add (+ residual Add, + Relu) -> one MatMul (fuse_matmul_bias, then
// fuse_residual_add and fuse_clamp_activation): the bits of the separate ops in every mode.
#include <gtest/gtest.h>

#include "control_model_builder.h"
#include "kernels/math/half.h"
#include "passes/passes.h"
#include "passes_test_util.h"

namespace twinrt {
namespace {

using namespace control_testing;

Tensor random_tensor(std::vector<int64_t> shape, uint32_t seed) { return random_floats(std::move(shape), seed, -1.0f, 1.0f); }

struct Linear {
  std::vector<int64_t> bias_shape = {12};
  bool bias_first = false;     // Add(bias, product)
  bool residual = true;        // then Add(., r)
  bool bias_is_input = false;  // the bias also a graph input (a feed may replace it)
};

// y = Relu(x · W + bias (+ r)), W [8, 12].
ir::Model linear(const Linear& l) {
  std::vector<ir::Node> nodes = {node("MatMul", {"x", "w"}, {"p"}),
                                 node("Add", l.bias_first ? std::vector<std::string>{"b", "p"}
                                                          : std::vector<std::string>{"p", "b"},
                                      {"s"})};
  std::vector<ir::ValueInfo> inputs = {tensor_info("x", DataType::kFloat)};
  if (l.residual) {
    nodes.push_back(node("Add", {"s", "r"}, {"t"}));
    inputs.push_back(tensor_info("r", DataType::kFloat));
  }
  nodes.push_back(node("Relu", {l.residual ? "t" : "s"}, {"y"}));
  if (l.bias_is_input) inputs.push_back(tensor_info("b", DataType::kFloat));
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i].name = "n" + std::to_string(i);
  ir::Graph g = graph(std::move(nodes), inputs, {tensor_info("y", DataType::kFloat)});
  add_initializer(g, "w", random_tensor({8, 12}, 1));
  add_initializer(g, "b", random_tensor(l.bias_shape, 2));
  return model_of(std::move(g));
}

TEST(PassesMatMulBias, BiasResidualAndReluBecomeOneMatMul) {
  ir::Model m = linear({});
  passes::optimize(m, OptimizationLevel::kBasic, Mode::kExact);
  ASSERT_EQ(m.graph->nodes.size(), 1u);
  const ir::Node& n = m.graph->nodes[0];
  EXPECT_TRUE(n.fused_bias);
  EXPECT_TRUE(n.fused_residual);
  EXPECT_TRUE(n.fused_clamp.has_value());
  EXPECT_EQ(n.inputs, (std::vector<std::string>{"x", "w", "b", "r"}));
  EXPECT_EQ(n.describe(), "node 'n0' + 'n1' + 'n2' + 'n3' (MatMul, fused)");
}

TEST(PassesMatMulBias, OnlyAConstantVectorOfBsColumns) {
  for (const Linear& l : {Linear{{1, 12}}, Linear{{12}, false, true, true}}) {
    ir::Model m = linear(l);
    passes::optimize(m, OptimizationLevel::kAll, Mode::kDefault);
    ASSERT_EQ(m.graph->nodes[0].op_type, "MatMul");
    EXPECT_FALSE(m.graph->nodes[0].fused_bias) << shape_to_string(l.bias_shape);
  }
}

// Ranks 1 to 3 for x, the bias on either side, residuals that fit the product and ones that
// broadcast (one makes the output larger), with and without a residual, at 1 and 2 threads.
TEST(PassesMatMulBias, FusedGivesTheSeparateOpsBits) {
  const std::vector<std::vector<int64_t>> x_shapes = {{8}, {5, 8}, {2, 37, 8}};
  uint32_t seed = 10;
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference})
    for (const auto& xs : x_shapes) {
      std::vector<int64_t> out = xs;
      out.back() = 12;
      for (const auto& rs : {out, std::vector<int64_t>{12}, std::vector<int64_t>{3, 1, 1, 12}})
        for (bool first : {false, true})
          for (bool residual : {true, false}) {
            const Linear l{{12}, first, residual};
            std::map<std::string, Tensor> feeds = {{"x", random_tensor(xs, seed++)}};
            if (residual) feeds["r"] = random_tensor(rs, seed++);
            for (int threads : {1, 2}) {
              const Tensor fused = run_model(linear(l), mode, OptimizationLevel::kAll, feeds, threads);
              const Tensor separate = run_model(linear(l), mode, OptimizationLevel::kNone, feeds);
              EXPECT_TRUE(same_bits(fused, separate))
                  << mode_name(mode) << " x " << shape_to_string(xs) << (residual ? " r " + shape_to_string(rs) : "")
                  << (first ? " bias + product" : " product + bias") << " threads " << threads;
            }
          }
    }
}

// y = x · W + r in a half type: not fused (a MatMul takes a residual only when its product
// is float32), and the same bits either way.
template <class T>
void expect_half_residual_unfused() {
  const auto half_tensor = [](std::vector<int64_t> shape, uint32_t seed) {
    const Tensor f = random_tensor(shape, seed);
    std::vector<T> v;
    for (int64_t i = 0; i < f.numel(); ++i) {
      if constexpr (std::is_same_v<T, Float16>) v.push_back(math::to_float16(f.data<float>()[i]));
      else v.push_back(math::to_bfloat16(f.data<float>()[i]));
    }
    return make<T>(std::move(shape), v);
  };
  const DataType dt = dtype_of<T>();
  ir::Graph g = graph({node("MatMul", {"x", "w"}, {"p"}), node("Add", {"p", "r"}, {"y"})},
                      {tensor_info("x", dt), tensor_info("r", dt)}, {tensor_info("y", dt)});
  add_initializer(g, "w", half_tensor({8, 12}, 1));
  const std::map<std::string, Tensor> feeds = {{"x", half_tensor({5, 8}, 2)}, {"r", half_tensor({5, 12}, 3)}};
  ir::Model optimized = model_of(g);
  passes::optimize(optimized, OptimizationLevel::kAll, Mode::kDefault);
  EXPECT_EQ(optimized.graph->nodes.size(), 2u) << dtype_name(dt);
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference}) {
    const Tensor all = run_model(model_of(g), mode, OptimizationLevel::kAll, feeds);
    const Tensor none = run_model(model_of(g), mode, OptimizationLevel::kNone, feeds);
    EXPECT_TRUE(same_bits(all, none)) << dtype_name(dt) << " " << mode_name(mode);
  }
}

TEST(PassesMatMulBias, HalfProductsKeepTheirAdd) {
  expect_half_residual_unfused<Float16>();
  expect_half_residual_unfused<BFloat16>();
}

}  // namespace
}  // namespace twinrt
