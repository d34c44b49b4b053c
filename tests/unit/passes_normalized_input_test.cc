// BatchNormalization [+ Relu/Clip] whose output only a 1x1 Conv reads -> one NormalizedConv
// (fuse_normalized_input): the separate ops' bits in every mode, on every ISA tier and at 1 and
// 2 threads, and only where the statistics are fixed constants and the Conv is pointwise.
#include <gtest/gtest.h>

#include "control_model_builder.h"
#include "kernels/cpu/isa.h"
#include "passes/passes.h"
#include "passes_test_util.h"

namespace twinrt {
namespace {

using namespace control_testing;

constexpr int64_t kChannels = 20, kOut = 12;

struct PreActivation {
  int64_t channels = kChannels;
  std::string activation;  // "", "Relu" or "Clip" (0, 6)
  bool bias = true;
  bool residual = false;  // Conv(...) + r
  std::vector<ir::Attribute> conv_attrs = {};
  std::vector<int64_t> kernel = {1, 1};
  bool stats_as_inputs = false;  // the statistics are graph inputs too (a feed may replace them)
  bool shared_stats = false;     // mean and var through Identity nodes, as exporters share initializers
};

// y = Conv(activation(BatchNormalization(x)), W [kOut, kChannels, kernel]) (+ r).
ir::Model pre_activation(const PreActivation& c) {
  std::vector<ir::Node> nodes;
  std::vector<std::string> stats = {"scale", "shift", "mean", "var"};
  if (c.shared_stats) {
    nodes.push_back(node("Identity", {"mean"}, {"mean_alias"}));
    nodes.push_back(node("Identity", {"var"}, {"var_alias"}));
    stats[2] = "mean_alias", stats[3] = "var_alias";
  }
  nodes.push_back(node("BatchNormalization", {"x", stats[0], stats[1], stats[2], stats[3]}, {"n"},
                       {float_attr("epsilon", 1e-3f)}));
  std::string conv_in = "n";
  if (c.activation == "Relu") nodes.push_back(node("Relu", {"n"}, {conv_in = "a"}));
  if (c.activation == "Clip") nodes.push_back(node("Clip", {"n", "lo", "hi"}, {conv_in = "a"}));
  nodes.push_back(node("Conv", c.bias ? std::vector<std::string>{conv_in, "w", "b"} : std::vector<std::string>{conv_in, "w"},
                       {c.residual ? "c" : "y"}, c.conv_attrs));
  std::vector<ir::ValueInfo> inputs = {tensor_info("x", DataType::kFloat)};
  if (c.residual) {
    nodes.push_back(node("Add", {"c", "r"}, {"y"}));
    inputs.push_back(tensor_info("r", DataType::kFloat));
  }
  if (c.stats_as_inputs)
    for (const char* s : {"scale", "shift", "mean", "var"}) inputs.push_back(tensor_info(s, DataType::kFloat));
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i].name = "n" + std::to_string(i);
  ir::Graph g = graph(std::move(nodes), inputs, {tensor_info("y", DataType::kFloat)});
  std::vector<int64_t> w_shape = {kOut, c.channels};
  w_shape.insert(w_shape.end(), c.kernel.begin(), c.kernel.end());
  add_initializer(g, "w", random_floats(w_shape, 1, -1.0f, 1.0f));
  add_initializer(g, "b", random_floats({kOut}, 2, -1.0f, 1.0f));
  add_initializer(g, "scale", random_floats({c.channels}, 3, 0.5f, 1.5f));
  add_initializer(g, "shift", random_floats({c.channels}, 4, -1.0f, 1.0f));
  add_initializer(g, "mean", random_floats({c.channels}, 5, -2.0f, 2.0f));
  add_initializer(g, "var", random_floats({c.channels}, 6, 0.25f, 4.0f));
  add_initializer(g, "lo", control_testing::make<float>({}, {0.0f}));
  add_initializer(g, "hi", control_testing::make<float>({}, {6.0f}));
  return model_of(std::move(g));
}

TEST(PassesNormalizedInput, NormalizationActivationAndPointwiseConvBecomeOneNode) {
  ir::Model m = pre_activation({.activation = "Relu", .residual = true});
  passes::optimize(m, OptimizationLevel::kBasic, Mode::kExact);
  ASSERT_EQ(m.graph->nodes.size(), 1u);
  const ir::Node& n = m.graph->nodes[0];
  EXPECT_EQ(n.op_type, "NormalizedConv");
  EXPECT_EQ(n.domain, ir::kInternalDomain);
  EXPECT_TRUE(n.fused_residual);
  EXPECT_EQ(n.inputs, (std::vector<std::string>{"x", "w", "b", "r", "scale", "shift", "mean", "var"}));
  EXPECT_EQ(n.describe(), "node 'n2' + 'n0' + 'n1' + 'n3' (ai.twinrt:NormalizedConv, fused)");
  ASSERT_NE(n.attr("epsilon"), nullptr);
  EXPECT_EQ(n.attr("epsilon")->f, 1e-3f);
  ASSERT_NE(n.attr("input_min"), nullptr);
  EXPECT_EQ(n.attr("input_min")->f, 0.0f);
  EXPECT_EQ(n.attr("input_max"), nullptr);

  // Statistics that Identity nodes pass on: the Conv reads the initializers themselves.
  ir::Model shared = pre_activation({.bias = false, .shared_stats = true});
  passes::optimize(shared, OptimizationLevel::kBasic, Mode::kDefault);
  const ir::Node& fused = shared.graph->nodes.back();
  EXPECT_EQ(fused.op_type, "NormalizedConv");
  EXPECT_EQ(fused.inputs, (std::vector<std::string>{"x", "w", "", "scale", "shift", "mean", "var"}));
}

TEST(PassesNormalizedInput, OnlyPointwiseConvsThatReadFixedStatisticsAlone) {
  const std::vector<PreActivation> kept = {
      {.conv_attrs = {ints_attr("kernel_shape", {3, 3}), ints_attr("pads", {1, 1, 1, 1})}, .kernel = {3, 3}},
      {.conv_attrs = {ints_attr("strides", {2, 2})}},
      {.conv_attrs = {int_attr("group", 2)}, .kernel = {1, 1}},
      {.stats_as_inputs = true},
  };
  for (const PreActivation& c : kept) {
    ir::Model m = pre_activation(c);
    passes::optimize(m, OptimizationLevel::kAll, Mode::kDefault);
    EXPECT_EQ(m.graph->nodes.back().op_type, "Conv");
  }
  // The normalization is also a graph output.
  ir::Model seen = pre_activation({});
  seen.graph->outputs.push_back(tensor_info("n", DataType::kFloat));
  passes::optimize(seen, OptimizationLevel::kAll, Mode::kDefault);
  EXPECT_EQ(seen.graph->nodes.size(), 2u);
}

// Every mode, every tier, 1 and 2 threads, with and without a clamp, bias and residual: the
// separate ops' bits. 9 x 11 and 1 x 50 positions leave partial panels and partial vectors;
// reference mode and one input channel (a depthwise Conv's kernel) take the separate
// normalization inside the kernel.
TEST(PassesNormalizedInput, FusedGivesTheSeparateOpsBits) {
  const std::vector<std::vector<int64_t>> x_shapes = {{2, kChannels, 9, 11}, {1, kChannels, 1, 50}};
  const std::vector<PreActivation> variants = {{},
                                               {.activation = "Relu"},
                                               {.activation = "Clip", .bias = false},
                                               {.activation = "Relu", .residual = true},
                                               {.channels = 1, .activation = "Relu"}};
  uint32_t seed = 10;
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference})
    for (Isa isa : {Isa::kAvx512, Isa::kAvx2, Isa::kScalar}) {
      if (!kernels::isa_supported(isa)) continue;
      for (const auto& x_shape : x_shapes)
        for (const PreActivation& c : variants) {
          std::vector<int64_t> shape = x_shape;
          shape[1] = c.channels;
          std::map<std::string, Tensor> feeds = {{"x", random_floats(shape, seed++)}};
          if (c.residual) feeds["r"] = random_floats({x_shape[0], kOut, x_shape[2], x_shape[3]}, seed++);
          const Tensor separate = run_model(pre_activation(c), mode, OptimizationLevel::kNone, feeds, 1, isa);
          for (int threads : {1, 2}) {
            const std::string what = std::string(mode_name(mode)) + " " + isa_name(isa) + " x " +
                                     shape_to_string(shape) + " " + c.activation + (c.residual ? " + r" : "") +
                                     " threads " + std::to_string(threads);
            const Tensor fused = run_model(pre_activation(c), mode, OptimizationLevel::kBasic, feeds, threads, isa);
            EXPECT_TRUE(same_bits(fused, separate)) << what;
          }
        }
    }
}

// X whose channels are not the statistics': an error naming both, as the separate
// normalization would give one.
TEST(PassesNormalizedInput, XOfOtherChannelsIsAnError) {
  SessionOptions options;
  options.optimization = OptimizationLevel::kBasic;
  auto session = SessionImpl::create(pre_activation({}), options);
  ASSERT_TRUE(session.is_ok()) << session.status().message();
  auto out = (*session)->run({{"x", Value::of(random_floats({1, kChannels + 1, 3, 3}, 1))}});
  ASSERT_FALSE(out.is_ok());
  EXPECT_NE(out.status().message().find("20 channels"), std::string::npos) << out.status().message();
}

}  // namespace
}  // namespace twinrt
