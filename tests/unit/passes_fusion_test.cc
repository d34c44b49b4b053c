// Graph passes that fold Add and Relu into the Conv before them must not change a single
// bit in any mode, whether the residual joins the tile epilogue or (broadcasting, float16)
// runs as a separate step inside the kernel.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "control_model_builder.h"
#include "passes_test_util.h"
#include "kernels/math/half.h"
#include "passes/passes.h"

namespace twinrt {
namespace {

using namespace control_testing;

template <class T>
Tensor random_tensor(std::vector<int64_t> shape, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<T> v(static_cast<size_t>(shape_numel(shape)));
  for (T& x : v) {
    if constexpr (std::is_same_v<T, Float16>) x = math::to_float16(dist(gen));
    else x = dist(gen);
  }
  return make<T>(std::move(shape), v);
}

// y = Relu(Conv(x, W, B) + r), or r + Conv(...) when `residual_first`.
template <class T>
ir::Model conv_add_relu(bool residual_first, bool with_bias = true) {
  const DataType dt = dtype_of<T>();
  std::vector<std::string> conv_inputs = {"x", "w"};
  if (with_bias) conv_inputs.push_back("b");
  ir::Graph g = graph({node("Conv", conv_inputs, {"c"}, {ints_attr("pads", {1, 1, 1, 1})}),
                       node("Add", residual_first ? std::vector<std::string>{"r", "c"} : std::vector<std::string>{"c", "r"},
                            {"s"}),
                       node("Relu", {"s"}, {"y"})},
                      {tensor_info("x", dt), tensor_info("r", dt)}, {tensor_info("y", dt)});
  g.nodes[0].name = "conv";
  g.nodes[1].name = "add";
  g.nodes[2].name = "relu";
  g.initializers["w"] = random_tensor<T>({40, 3, 3, 3}, 1);
  g.initializer_order.push_back("w");
  if (with_bias) {
    g.initializers["b"] = random_tensor<T>({40}, 2);
    g.initializer_order.push_back("b");
  }
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = 17;
  m.graph = std::make_shared<ir::Graph>(std::move(g));
  return m;
}

Tensor run_model(ir::Model m, Mode mode, OptimizationLevel level, const Tensor& x, const Tensor& r,
                 int threads = 1) {
  return run_model(std::move(m), mode, level, std::map<std::string, Tensor>{{"x", x}, {"r", r}}, threads);
}

TEST(PassesFusion, ConvAddReluBecomesOneNodeNamingAllThree) {
  ir::Model m = conv_add_relu<float>(false);
  passes::optimize(m, OptimizationLevel::kBasic, Mode::kExact);
  ASSERT_EQ(m.graph->nodes.size(), 1u);
  const ir::Node& n = m.graph->nodes[0];
  EXPECT_TRUE(n.fused_residual);
  ASSERT_TRUE(n.fused_clamp.has_value());
  EXPECT_EQ(n.inputs.back(), "r");
  EXPECT_EQ(n.outputs[0], "y");
  EXPECT_EQ(n.describe(), "node 'conv' + 'add' + 'relu' (Conv, fused)");
}

TEST(PassesFusion, ValuesReadElsewhereAreNotFused) {
  ir::Model m = conv_add_relu<float>(false);
  m.graph->outputs.push_back(tensor_info("c", DataType::kFloat));  // the Conv's output is also a model output
  passes::optimize(m, OptimizationLevel::kAll, Mode::kDefault);
  ASSERT_EQ(m.graph->nodes[0].op_type, "Conv");
  EXPECT_FALSE(m.graph->nodes[0].fused_residual);
  EXPECT_FALSE(m.graph->nodes[0].fused_clamp.has_value());
  EXPECT_EQ(m.graph->nodes[0].outputs[0], "c");
}

TEST(PassesFusion, NothingChangesWithoutOptimization) {
  ir::Model m = conv_add_relu<float>(false);
  passes::optimize(m, OptimizationLevel::kNone, Mode::kDefault);
  EXPECT_EQ(m.graph->nodes.size(), 3u);
}

// Every mode, both operand orders, residuals that fit the output and ones that broadcast
// (including one that makes the output larger than the Conv's), with and without bias.
TEST(PassesFusion, FusedResidualGivesTheSeparateOpsBits) {
  const Tensor x = random_tensor<float>({2, 3, 7, 11}, 3);
  const std::vector<std::vector<int64_t>> residual_shapes = {{2, 40, 7, 11}, {1, 40, 1, 1}, {11}, {3, 2, 40, 7, 11}};
  uint32_t seed = 10;
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference})
    for (const auto& shape : residual_shapes)
      for (bool first : {false, true})
        for (bool bias : {true, false}) {
          const Tensor r = random_tensor<float>(shape, seed++);
          const Tensor fused = run_model(conv_add_relu<float>(first, bias), mode, OptimizationLevel::kAll, x, r, 2);
          const Tensor separate = run_model(conv_add_relu<float>(first, bias), mode, OptimizationLevel::kNone, x, r);
          EXPECT_TRUE(same_bits(fused, separate))
              << mode_name(mode) << " residual " << shape_to_string(shape) << (first ? " r + conv" : " conv + r")
              << (bias ? " with bias" : "");
        }
}

// y = Relu(depthwise Conv(x, W, B)): the depthwise kernel clamps each plane as it is made.
ir::Model depthwise_relu(int64_t channels) {
  ir::Graph g = graph({node("Conv", {"x", "w", "b"}, {"c"}, {ints_attr("pads", {1, 1, 1, 1}), int_attr("group", channels)}),
                       node("Relu", {"c"}, {"y"})},
                      {tensor_info("x", DataType::kFloat)}, {tensor_info("y", DataType::kFloat)});
  g.initializers["w"] = random_tensor<float>({channels, 1, 3, 3}, 8);
  g.initializers["b"] = random_tensor<float>({channels}, 9);
  g.initializer_order = {"w", "b"};
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = 17;
  m.graph = std::make_shared<ir::Graph>(std::move(g));
  return m;
}

TEST(PassesFusion, DepthwiseConvReluGivesTheSeparateOpsBits) {
  ir::Model optimized = depthwise_relu(8);
  passes::optimize(optimized, OptimizationLevel::kAll, Mode::kExact);
  ASSERT_EQ(optimized.graph->nodes.size(), 1u);
  ASSERT_TRUE(optimized.graph->nodes[0].fused_clamp.has_value());
  const Tensor x = random_tensor<float>({2, 8, 9, 13}, 11);
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference}) {
    const Tensor fused = run_model(depthwise_relu(8), mode, OptimizationLevel::kAll, {{"x", x}}, 2);
    const Tensor separate = run_model(depthwise_relu(8), mode, OptimizationLevel::kNone, {{"x", x}}, 1);
    EXPECT_TRUE(same_bits(fused, separate)) << mode_name(mode);
  }
}

TEST(PassesFusion, Float16ResidualRoundsTheConvFirst) {
  const Tensor x = random_tensor<Float16>({1, 3, 6, 6}, 4);
  const Tensor r = random_tensor<Float16>({1, 40, 6, 6}, 5);
  for (Mode mode : {Mode::kDefault, Mode::kExact}) {
    const Tensor fused = run_model(conv_add_relu<Float16>(false), mode, OptimizationLevel::kAll, x, r);
    const Tensor separate = run_model(conv_add_relu<Float16>(false), mode, OptimizationLevel::kNone, x, r);
    EXPECT_TRUE(same_bits(fused, separate)) << mode_name(mode);
  }
}

TEST(PassesFusion, ResidualOfAnotherTypeIsAnError) {
  ir::Model m = conv_add_relu<float>(false);
  m.graph->inputs[1] = tensor_info("r", DataType::kDouble);
  SessionOptions options;
  auto session = SessionImpl::create(std::move(m), options);
  if (!session.is_ok()) return;  // refused at load: fine too
  auto out = (*session)->run({{"x", Value::of(random_tensor<float>({1, 3, 4, 4}, 6))},
                              {"r", Value::of(random_tensor<double>({1, 40, 4, 4}, 7))}});
  ASSERT_FALSE(out.is_ok());
  EXPECT_NE(out.status().message().find("same type"), std::string::npos) << out.status().message();
}

}  // namespace
}  // namespace twinrt
