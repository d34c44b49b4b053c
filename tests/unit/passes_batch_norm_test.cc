// passes/fold_batch_norm.cc folds an inference BatchNormalization into the Conv before it
// (default mode, optimization "all" only). The folded Conv must agree with the separate
// nodes within float error, and the pass must leave alone what it cannot fold: a Conv
// output read elsewhere, statistics a feed may replace, training mode. A Relu or Clip after
// a BatchNormalization that stays (DenseNet's pre-activation ones) folds into it with the
// separate nodes' bits.
#include <gtest/gtest.h>

#include <cmath>

#include "control_model_builder.h"
#include "passes/passes.h"
#include "passes_test_util.h"

namespace twinrt {
namespace {

using namespace control_testing;

// x [1, 4, 9, 9] -> Conv 3x3 (8 outputs, groups `group`) -> BatchNormalization -> y
ir::Model conv_bn(int64_t group, bool conv_bias) {
  std::vector<std::string> conv_inputs = {"x", "w"};
  if (conv_bias) conv_inputs.push_back("b");
  ir::Graph g = graph({node("Conv", conv_inputs, {"c"}, {ints_attr("pads", {1, 1, 1, 1}), int_attr("group", group)}),
                       node("BatchNormalization", {"c", "scale", "bias", "mean", "var"}, {"y"},
                            {float_attr("epsilon", 1e-3f)})},
                      {tensor_info("x", DataType::kFloat)}, {tensor_info("y", DataType::kFloat)});
  g.nodes[0].name = "conv";
  g.nodes[1].name = "bn";
  add_initializer(g, "w", random_floats({8, 4 / group, 3, 3}, 1, -1.0f, 1.0f));
  if (conv_bias) add_initializer(g, "b", random_floats({8}, 2, -1.0f, 1.0f));
  add_initializer(g, "scale", random_floats({8}, 3, 0.5f, 2.0f));
  add_initializer(g, "bias", random_floats({8}, 4, -1.0f, 1.0f));
  add_initializer(g, "mean", random_floats({8}, 5, -1.0f, 1.0f));
  add_initializer(g, "var", random_floats({8}, 6, 0.1f, 3.0f));
  return model_of(std::move(g), 15);
}

size_t nodes_after(ir::Model m, Mode mode, OptimizationLevel level) {
  passes::optimize(m, level, mode);
  return m.graph->nodes.size();
}

TEST(PassesBatchNorm, FoldsIntoTheConvInDefaultModeOnly) {
  for (int64_t group : {1, 2, 4})
    for (bool bias : {false, true}) {
      ir::Model m = conv_bn(group, bias);
      passes::optimize(m, OptimizationLevel::kAll, Mode::kDefault);
      ASSERT_EQ(m.graph->nodes.size(), 1u);
      EXPECT_EQ(m.graph->nodes[0].op_type, "Conv");
      EXPECT_EQ(m.graph->nodes[0].fused_from, std::vector<std::string>{"bn"});
      // The original weights and statistics are gone: nothing reads them any more.
      for (const char* name : {"w", "b", "scale", "bias", "mean", "var"}) EXPECT_FALSE(m.graph->initializers.count(name)) << name;
      const Tensor x = random_floats({1, 4, 9, 9}, 7, -2.0f, 2.0f);
      const Tensor folded = run_model(conv_bn(group, bias), Mode::kDefault, OptimizationLevel::kAll, {{"x", x}});
      const Tensor separate = run_model(conv_bn(group, bias), Mode::kReference, OptimizationLevel::kNone, {{"x", x}});
      ASSERT_EQ(folded.shape(), separate.shape());
      for (int64_t i = 0; i < folded.numel(); ++i)
        ASSERT_NEAR(folded.data<float>()[i], separate.data<float>()[i], 1e-4f * (1 + std::fabs(separate.data<float>()[i])))
            << "group " << group << " at " << i;
    }
  for (Mode mode : {Mode::kExact, Mode::kReference}) EXPECT_EQ(nodes_after(conv_bn(1, true), mode, OptimizationLevel::kAll), 2u);
  EXPECT_EQ(nodes_after(conv_bn(1, true), Mode::kDefault, OptimizationLevel::kBasic), 2u);
}

TEST(PassesBatchNorm, LeavesAloneWhatItCannotFold) {
  {  // the Conv's output is also a graph output
    ir::Model m = conv_bn(1, true);
    m.graph->outputs.push_back(tensor_info("c", DataType::kFloat));
    EXPECT_EQ(nodes_after(std::move(m), Mode::kDefault, OptimizationLevel::kAll), 2u);
  }
  {  // a feed may replace the mean (an initializer that is also a graph input)
    ir::Model m = conv_bn(1, true);
    m.graph->inputs.push_back(tensor_info("mean", DataType::kFloat));
    EXPECT_EQ(nodes_after(std::move(m), Mode::kDefault, OptimizationLevel::kAll), 2u);
  }
  {  // training mode computes the statistics from the batch
    ir::Model m = conv_bn(1, true);
    m.graph->nodes[1].attributes.push_back(int_attr("training_mode", 1));
    EXPECT_EQ(nodes_after(std::move(m), Mode::kDefault, OptimizationLevel::kAll), 2u);
  }
  {  // statistics of another length than the Conv's outputs
    ir::Model m = conv_bn(1, true);
    m.graph->initializers["var"] = random_floats({4}, 6, 0.1f, 3.0f);
    EXPECT_EQ(nodes_after(std::move(m), Mode::kDefault, OptimizationLevel::kAll), 2u);
  }
}

// x [2, 8, 5, 7] -> BatchNormalization -> Relu, or Clip [-0.5, 0.75] -> y
ir::Model bn_then(const char* activation) {
  const bool clip = std::string(activation) == "Clip";
  std::vector<std::string> act_inputs = {"n"};
  if (clip) act_inputs.insert(act_inputs.end(), {"lo", "hi"});
  ir::Graph g = graph({node("BatchNormalization", {"x", "scale", "bias", "mean", "var"}, {"n"}, {float_attr("epsilon", 1e-3f)}),
                       node(activation, act_inputs, {"y"})},
                      {tensor_info("x", DataType::kFloat)}, {tensor_info("y", DataType::kFloat)});
  g.nodes[0].name = "bn";
  g.nodes[1].name = "act";
  add_initializer(g, "scale", random_floats({8}, 3, 0.5f, 2.0f));
  add_initializer(g, "bias", random_floats({8}, 4, -1.0f, 1.0f));
  add_initializer(g, "mean", random_floats({8}, 5, -1.0f, 1.0f));
  add_initializer(g, "var", random_floats({8}, 6, 0.1f, 3.0f));
  if (clip) {
    add_initializer(g, "lo", control_testing::make<float>({}, {-0.5f}));
    add_initializer(g, "hi", control_testing::make<float>({}, {0.75f}));
  }
  return model_of(std::move(g), 15);
}

TEST(PassesBatchNorm, ActivationAfterItFoldsInWithTheSeparateNodesBits) {
  for (const char* activation : {"Relu", "Clip"}) {
    ir::Model m = bn_then(activation);
    passes::optimize(m, OptimizationLevel::kAll, Mode::kExact);
    ASSERT_EQ(m.graph->nodes.size(), 1u) << activation;
    EXPECT_TRUE(m.graph->nodes[0].fused_clamp.has_value());
    EXPECT_EQ(m.graph->nodes[0].fused_from, std::vector<std::string>{"act"});
    const Tensor x = random_floats({2, 8, 5, 7}, 7, -3.0f, 3.0f);
    for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference}) {
      const Tensor fused = run_model(bn_then(activation), mode, OptimizationLevel::kAll, {{"x", x}}, 2);
      const Tensor separate = run_model(bn_then(activation), mode, OptimizationLevel::kNone, {{"x", x}});
      EXPECT_TRUE(same_bits(fused, separate)) << activation << " " << mode_name(mode);
    }
  }
}

}  // namespace
}  // namespace twinrt
