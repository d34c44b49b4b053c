// Mul by a per-channel factor, then a 1x1 Conv (a squeeze-and-excitation block's end) -> one
// ChannelScaledConv (fuse_channel_scale): the separate ops' bits in every mode, whatever the
// operands' shapes, and only where the Conv reads nothing but the product; in default mode
// with value-changing kernels (--optimization all) the factors may scale the weights instead,
// within float32 rounding of the separate ops.
#include <gtest/gtest.h>

#include <cmath>

#include "control_model_builder.h"
#include "ops/nn/channel_map.h"
#include "passes/passes.h"
#include "passes_test_util.h"

namespace twinrt {
namespace {

using namespace control_testing;

constexpr int64_t kChannels = 24, kOut = 20;

struct ScaledConv {
  bool scale_first = false;  // Mul(s, x)
  bool bias = true;
  bool residual = false;  // Conv(...) + r
  std::vector<ir::Attribute> conv_attrs = {};
  std::vector<int64_t> kernel = {1, 1};
};

// y = Conv(Mul(x, s), W [kOut, kChannels, kernel]) (+ r).
ir::Model scaled_conv(const ScaledConv& c) {
  std::vector<ir::Node> nodes = {
      node("Mul", c.scale_first ? std::vector<std::string>{"s", "x"} : std::vector<std::string>{"x", "s"}, {"m"}),
      node("Conv", c.bias ? std::vector<std::string>{"m", "w", "b"} : std::vector<std::string>{"m", "w"},
           {c.residual ? "c" : "y"}, c.conv_attrs)};
  std::vector<ir::ValueInfo> inputs = {tensor_info("x", DataType::kFloat), tensor_info("s", DataType::kFloat)};
  if (c.residual) {
    nodes.push_back(node("Add", {"c", "r"}, {"y"}));
    inputs.push_back(tensor_info("r", DataType::kFloat));
  }
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i].name = "n" + std::to_string(i);
  ir::Graph g = graph(std::move(nodes), inputs, {tensor_info("y", DataType::kFloat)});
  std::vector<int64_t> w_shape = {kOut, kChannels};
  w_shape.insert(w_shape.end(), c.kernel.begin(), c.kernel.end());
  add_initializer(g, "w", random_floats(w_shape, 1, -1.0f, 1.0f));
  add_initializer(g, "b", random_floats({kOut}, 2, -1.0f, 1.0f));
  return model_of(std::move(g));
}

TEST(PassesChannelScale, MulAndPointwiseConvBecomeOneNode) {
  ir::Model m = scaled_conv({.residual = true});
  passes::optimize(m, OptimizationLevel::kBasic, Mode::kExact);
  ASSERT_EQ(m.graph->nodes.size(), 1u);
  const ir::Node& n = m.graph->nodes[0];
  EXPECT_EQ(n.op_type, "ChannelScaledConv");
  EXPECT_EQ(n.domain, ir::kInternalDomain);
  EXPECT_TRUE(n.fused_residual);
  EXPECT_EQ(n.inputs, (std::vector<std::string>{"x", "w", "b", "r", "s"}));
  EXPECT_EQ(n.describe(), "node 'n1' + 'n0' + 'n2' (ai.twinrt:ChannelScaledConv, fused)");

  ir::Model no_bias = scaled_conv({.bias = false});
  passes::optimize(no_bias, OptimizationLevel::kBasic, Mode::kExact);
  ASSERT_EQ(no_bias.graph->nodes.size(), 1u);
  EXPECT_EQ(no_bias.graph->nodes[0].inputs, (std::vector<std::string>{"x", "w", "", "s"}));
}

TEST(PassesChannelScale, OnlyPointwiseConvsInOneGroupThatReadTheProductAlone) {
  std::vector<ScaledConv> kept = {
      {.conv_attrs = {ints_attr("kernel_shape", {3, 3}), ints_attr("pads", {1, 1, 1, 1})}, .kernel = {3, 3}},
      {.conv_attrs = {ints_attr("strides", {2, 2})}},
      {.conv_attrs = {ints_attr("pads", {1, 1, 1, 1})}},
      {.conv_attrs = {string_attr("auto_pad", "SAME_UPPER")}},
  };
  for (const ScaledConv& c : kept) {
    ir::Model m = scaled_conv(c);
    passes::optimize(m, OptimizationLevel::kAll, Mode::kDefault);
    EXPECT_EQ(m.graph->nodes.back().op_type, "Conv");
  }
  // The product is also a graph output.
  ir::Model seen = scaled_conv({});
  seen.graph->outputs.push_back(tensor_info("m", DataType::kFloat));
  passes::optimize(seen, OptimizationLevel::kAll, Mode::kDefault);
  EXPECT_EQ(seen.graph->nodes.size(), 2u);
  // SiLU (x * Sigmoid(x)) before the Conv is an activation for the node before it.
  ir::Graph g = graph({node("Sigmoid", {"x"}, {"s"}), node("Mul", {"x", "s"}, {"m"}), node("Conv", {"m", "w"}, {"y"})},
                      {tensor_info("x", DataType::kFloat)}, {tensor_info("y", DataType::kFloat)});
  add_initializer(g, "w", random_floats({kOut, kChannels, 1, 1}, 1));
  ir::Model silu = model_of(std::move(g));
  passes::optimize(silu, OptimizationLevel::kAll, Mode::kDefault);
  EXPECT_EQ(silu.graph->nodes.back().op_type, "Conv");
}

// Where each element differs from the separate ops' by at most float32 rounding of its sum:
// |a - b| <= 1e-5 (1 + |b|) for sums of kChannels products of inputs in [-8, 8], weights
// in [-1, 1] and factors in [0, 1].
::testing::AssertionResult close_to(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) return ::testing::AssertionFailure() << "shapes differ";
  for (int64_t i = 0; i < a.numel(); ++i) {
    const float x = a.data<float>()[i], y = b.data<float>()[i];
    if (!(std::fabs(x - y) <= 1e-5f * (1.0f + std::fabs(y))))
      return ::testing::AssertionFailure() << "element " << i << ": " << x << " against " << y;
  }
  return ::testing::AssertionSuccess();
}

// Per-channel factors of one image or of each (the tiles apply them), and operands the
// tiles cannot split (a full tensor, one that makes the product larger than X, a factor
// per position): the bits of the separate Mul and Conv at 1 and 2 threads, in every mode
// without value-changing kernels. Default mode with them scales the weights where the
// output channels are at most half the positions (kOut 20 against 99 here): float32 noise.
TEST(PassesChannelScale, FusedGivesTheSeparateOpsBits) {
  const std::vector<int64_t> x_shape = {2, kChannels, 9, 11};
  const std::vector<std::vector<int64_t>> s_shapes = {
      {1, kChannels, 1, 1}, {2, kChannels, 1, 1}, {2, kChannels, 9, 11}, {1, kChannels, 1, 11}, {kChannels, 1, 1}};
  uint32_t seed = 10;
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference})
    for (const auto& s_shape : s_shapes)
      for (bool scale_first : {false, true})
        for (bool residual : {false, true}) {
          const ScaledConv c{.scale_first = scale_first, .residual = residual};
          std::map<std::string, Tensor> feeds = {{"x", random_floats(x_shape, seed++)},
                                                 {"s", random_floats(s_shape, seed++, 0.0f, 1.0f)}};
          if (residual) feeds["r"] = random_floats({2, kOut, 9, 11}, seed++);
          const Tensor separate = run_model(scaled_conv(c), mode, OptimizationLevel::kNone, feeds);
          for (int threads : {1, 2}) {
            const std::string what = std::string(mode_name(mode)) + " s " + shape_to_string(s_shape) +
                                     (scale_first ? " Mul(s, x)" : " Mul(x, s)") + (residual ? " + r" : "") +
                                     " threads " + std::to_string(threads);
            const Tensor basic = run_model(scaled_conv(c), mode, OptimizationLevel::kBasic, feeds, threads);
            EXPECT_TRUE(same_bits(basic, separate)) << what;
            const Tensor all = run_model(scaled_conv(c), mode, OptimizationLevel::kAll, feeds, threads);
            if (mode == Mode::kDefault) EXPECT_TRUE(close_to(all, separate)) << what;
            else EXPECT_TRUE(same_bits(all, separate)) << what;
          }
        }
}

// The weights' panels times the factors: tap k's mr entries of every panel times factors[k].
TEST(PassesChannelScale, WeightPanelsScaledByTheirTapsFactor) {
  constexpr int64_t kPanels = 3, kTaps = 5;
  constexpr int kMr = 4;
  const Tensor panels = random_floats({kPanels * kTaps * kMr}, 21, -1.0f, 1.0f);
  const Tensor factors = random_floats({kTaps}, 22, 0.0f, 1.0f);
  std::vector<float> scaled(kPanels * kTaps * kMr);
  nn::scale_weight_panels(panels.data<float>(), kPanels, kTaps, kMr, factors.data<float>(), scaled.data());
  for (int64_t q = 0; q < kPanels; ++q)
    for (int64_t k = 0; k < kTaps; ++k)
      for (int r = 0; r < kMr; ++r) {
        const int64_t i = (q * kTaps + k) * kMr + r;
        EXPECT_EQ(scaled[i], panels.data<float>()[i] * factors.data<float>()[k])
            << "panel " << q << " tap " << k << " row " << r;
      }
}

// The factor larger than X along the batch: the product, and so the output, has its shape.
TEST(PassesChannelScale, AFactorThatWidensTheProductWidensTheOutput) {
  const std::map<std::string, Tensor> feeds = {{"x", random_floats({1, kChannels, 5, 5}, 3)},
                                               {"s", random_floats({3, kChannels, 1, 1}, 4)}};
  const Tensor fused = run_model(scaled_conv({}), Mode::kDefault, OptimizationLevel::kAll, feeds);
  EXPECT_EQ(fused.shape(), (std::vector<int64_t>{3, kOut, 5, 5}));
  EXPECT_TRUE(same_bits(fused, run_model(scaled_conv({}), Mode::kDefault, OptimizationLevel::kNone, feeds)));
}

// Operands whose product the Conv cannot take fail as the separate Mul would.
TEST(PassesChannelScale, MismatchedOperandsAreAnError) {
  for (const std::vector<int64_t>& s_shape : {std::vector<int64_t>{1, 5, 1, 1}, std::vector<int64_t>{1, kChannels, 2, 1}}) {
    SessionOptions options;
    auto session = SessionImpl::create(scaled_conv({}), options);
    ASSERT_TRUE(session.is_ok()) << session.status().message();
    std::map<std::string, Value> feeds = {{"x", Value::of(random_floats({1, kChannels, 5, 5}, 5))},
                                          {"s", Value::of(random_floats(s_shape, 6))}};
    auto out = (*session)->run(feeds);
    ASSERT_FALSE(out.is_ok()) << shape_to_string(s_shape);
    EXPECT_NE(out.status().message().find("broadcast"), std::string::npos) << out.status().message();
  }
}

}  // namespace
}  // namespace twinrt
