// RNN, GRU and LSTM on one-unit problems small enough to follow by hand: directions,
// sequence_lens, layout, clip, linear_before_reset, input_forget, peepholes and the
// activation parameter hand-out.
#include <gtest/gtest.h>

#include <cmath>

#include "control_model_builder.h"
#include "ops/rnn/activation.h"

namespace twinrt {
namespace {

using namespace control_testing;

const DataType kF = DataType::kFloat;

ir::Graph recurrent_graph(const std::string& op, std::vector<std::string> inputs, std::vector<std::string> outputs,
                          std::vector<ir::Attribute> attrs) {
  std::vector<ir::ValueInfo> graph_inputs, graph_outputs;
  for (const auto& in : inputs)
    if (!in.empty()) graph_inputs.push_back(any_info(in));
  for (const auto& out : outputs)
    if (!out.empty()) graph_outputs.push_back(any_info(out));
  return graph({node(op, std::move(inputs), std::move(outputs), std::move(attrs))}, graph_inputs, graph_outputs);
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Identity activations (Affine with alpha 1, beta 0) make H_t = x_t W + H_t-1 R.
// Forward W=1, R=0.5; reverse W=2, R=1. Batch 0 is [1,2,3] (length 3), batch 1 [4,5,6]
// with length 2:
//   forward  b0: 1, 2 + 0.5 = 2.5, 3 + 1.25 = 4.25     b1: 4, 5 + 2 = 7, (pad) 0
//   reverse  b0: t2 = 6, t1 = 4 + 6 = 10, t0 = 2 + 10 = 12
//            b1: t1 = 10, t0 = 8 + 10 = 18, (pad) 0
ir::Graph bidirectional_rnn(int64_t layout) {
  return recurrent_graph("RNN", {"X", "W", "R", "", "lens"}, {"Y", "Y_h"},
                         {int_attr("hidden_size", 1), string_attr("direction", "bidirectional"),
                          strings_attr("activations", {"Affine", "Affine"}), int_attr("layout", layout)});
}

const std::map<std::string, Value> kRnnFeedsBase = {
    {"W", val<float>({2, 1, 1}, {1, 2})}, {"R", val<float>({2, 1, 1}, {0.5f, 1})}, {"lens", val<int32_t>({2}, {3, 2})}};

TEST(ControlRnn, BidirectionalWithSequenceLengths) {
  auto feeds = kRnnFeedsBase;
  feeds["X"] = val<float>({3, 2, 1}, {1, 4, 2, 5, 3, 6});  // [seq, batch, input]
  for (Mode mode : {Mode::kDefault, Mode::kReference}) {
    auto out = run_graph(bidirectional_rnn(0), 14, feeds, mode);
    ASSERT_TRUE(out.is_ok()) << out.status().message();
    EXPECT_EQ(out->at("Y").tensor.shape(), (std::vector<int64_t>{3, 2, 2, 1}));
    EXPECT_EQ(values_of<float>(out->at("Y").tensor),
              (std::vector<float>{1, 4, 12, 18, 2.5f, 7, 10, 10, 4.25f, 0, 6, 0}));
    EXPECT_EQ(values_of<float>(out->at("Y_h").tensor), (std::vector<float>{4.25f, 7, 12, 18}));
  }
}

TEST(ControlRnn, BatchFirstLayoutIndexesTheSameProblem) {
  auto feeds = kRnnFeedsBase;
  feeds["X"] = val<float>({2, 3, 1}, {1, 2, 3, 4, 5, 6});  // [batch, seq, input]
  auto out = run_graph(bidirectional_rnn(1), 14, feeds, Mode::kDefault, 2);
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at("Y").tensor.shape(), (std::vector<int64_t>{2, 3, 2, 1}));  // [batch, seq, dirs, hidden]
  EXPECT_EQ(values_of<float>(out->at("Y").tensor), (std::vector<float>{1, 12, 2.5f, 10, 4.25f, 6, 4, 18, 7, 10, 0, 0}));
  EXPECT_EQ(out->at("Y_h").tensor.shape(), (std::vector<int64_t>{2, 2, 1}));  // [batch, dirs, hidden]
  EXPECT_EQ(values_of<float>(out->at("Y_h").tensor), (std::vector<float>{4.25f, 12, 7, 18}));
}

TEST(ControlRnn, ClipBoundsActivationInputs) {
  // Tanh(clip(10 * 1)) with clip 0.5 is tanh(0.5).
  auto g = recurrent_graph("RNN", {"X", "W", "R"}, {"", "Y_h"}, {int_attr("hidden_size", 1), float_attr("clip", 0.5f)});
  auto out = run_graph(g, 14, {{"X", val<float>({1, 1, 1}, {10})}, {"W", val<float>({1, 1, 1}, {1})},
                               {"R", val<float>({1, 1, 1}, {1})}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_NEAR(values_of<float>(out->at("Y_h").tensor)[0], std::tanh(0.5), 1e-7);
}

TEST(ControlRnn, GruLinearBeforeResetAppliesTheResetGateToTheRecurrentBias) {
  // One step, x = 1, h0 = 0.5; W = [z, r, h] = [0.2, 0.4, 0.6], R = [0.1, 0.3, 0.5],
  // Rb = [0, 0, 0.7]:
  //   z = s(0.2 + 0.05), r = s(0.4 + 0.15)
  //   lbr 0: h~ = tanh(0.6 + r*0.5*0.5 + 0.7)   lbr 1: h~ = tanh(0.6 + r*(0.5*0.5 + 0.7))
  const double z = sigmoid(0.25), r = sigmoid(0.55);
  for (int64_t lbr : {0, 1}) {
    const double cand = lbr ? std::tanh(0.6 + r * (0.25 + 0.7)) : std::tanh(0.6 + r * 0.5 * 0.5 + 0.7);
    const double expected = (1 - z) * cand + z * 0.5;
    auto g = recurrent_graph("GRU", {"X", "W", "R", "B", "", "h0"}, {"", "Y_h"},
                             {int_attr("hidden_size", 1), int_attr("linear_before_reset", lbr)});
    for (Mode mode : {Mode::kDefault, Mode::kReference}) {
      auto out = run_graph(g, 14, {{"X", val<float>({1, 1, 1}, {1})}, {"W", val<float>({1, 3, 1}, {0.2f, 0.4f, 0.6f})},
                                   {"R", val<float>({1, 3, 1}, {0.1f, 0.3f, 0.5f})},
                                   {"B", val<float>({1, 6}, {0, 0, 0, 0, 0, 0.7f})}, {"h0", val<float>({1, 1, 1}, {0.5f})}},
                           mode);
      ASSERT_TRUE(out.is_ok()) << out.status().message();
      EXPECT_NEAR(values_of<float>(out->at("Y_h").tensor)[0], expected, 1e-6) << "linear_before_reset " << lbr;
    }
  }
}

TEST(ControlRnn, LstmCoupledGatesAndPeepholes) {
  // One step, x = 1, h0 = 0.2, c0 = 0.3; W = [i, o, f, c] = [0.5, -0.5, 0.25, 1],
  // R = [0.1, 0.2, 0.3, 0.4], P = [i, o, f] = [0.1, 0.2, 0.3]; input_forget: f = 1 - i.
  const double i = sigmoid(0.5 + 0.1 * 0.2 + 0.1 * 0.3);
  const double cand = std::tanh(1 + 0.4 * 0.2);
  const double c = (1 - i) * 0.3 + i * cand;
  const double o = sigmoid(-0.5 + 0.2 * 0.2 + 0.2 * c);
  const double h = o * std::tanh(c);
  auto g = recurrent_graph("LSTM", {"X", "W", "R", "", "", "h0", "c0", "P"}, {"Y", "Y_h", "Y_c"},
                           {int_attr("hidden_size", 1), int_attr("input_forget", 1)});
  auto out = run_graph(g, 14, {{"X", val<float>({1, 1, 1}, {1})}, {"W", val<float>({1, 4, 1}, {0.5f, -0.5f, 0.25f, 1})},
                               {"R", val<float>({1, 4, 1}, {0.1f, 0.2f, 0.3f, 0.4f})},
                               {"h0", val<float>({1, 1, 1}, {0.2f})}, {"c0", val<float>({1, 1, 1}, {0.3f})},
                               {"P", val<float>({1, 3}, {0.1f, 0.2f, 0.3f})}},
                       Mode::kReference);
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_NEAR(values_of<float>(out->at("Y_c").tensor)[0], c, 1e-6);
  EXPECT_NEAR(values_of<float>(out->at("Y_h").tensor)[0], h, 1e-6);
  EXPECT_NEAR(values_of<float>(out->at("Y").tensor)[0], h, 1e-6);
}

// Issue 9: PyTorch exports bidirectional LSTMs without `activations`; the defaults
// (Sigmoid, Tanh, Tanh) apply to both directions. Copying the list into itself was UB and
// gave "activation function '' is not supported" natively.
TEST(ControlRnn, BidirectionalLstmWithoutActivationsUsesTheDefaultsBothWays) {
  // One step, x = 1, h0 = c0 = 0, no bias. W = [i, o, f, c]: forward [0.5, -0.5, 0.25, 1],
  // reverse [1, 0.5, -1, -0.5]. h = o * tanh(i * tanh(W_c)).
  auto step_h = [](double wi, double wo, double wc) { return sigmoid(wo) * std::tanh(sigmoid(wi) * std::tanh(wc)); };
  auto g = recurrent_graph("LSTM", {"X", "W", "R"}, {"Y", "Y_h"},
                           {int_attr("hidden_size", 1), string_attr("direction", "bidirectional")});
  auto out = run_graph(g, 14, {{"X", val<float>({1, 1, 1}, {1})},
                               {"W", val<float>({2, 4, 1}, {0.5f, -0.5f, 0.25f, 1, 1, 0.5f, -1, -0.5f})},
                               {"R", val<float>({2, 4, 1}, {0, 0, 0, 0, 0, 0, 0, 0})}},
                       Mode::kReference);
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  const std::vector<float> h = values_of<float>(out->at("Y_h").tensor);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_NEAR(h[0], step_h(0.5, -0.5, 1), 1e-6);
  EXPECT_NEAR(h[1], step_h(1, 0.5, -0.5), 1e-6);
}

TEST(ControlRnn, MismatchedWeightsNameTheInput) {
  auto g = recurrent_graph("RNN", {"X", "W", "R"}, {"Y"}, {int_attr("hidden_size", 2)});
  auto out = run_graph(g, 14, {{"X", val<float>({1, 1, 1}, {1})}, {"W", val<float>({1, 3, 1}, {1, 1, 1})},
                               {"R", val<float>({1, 2, 2}, {1, 1, 1, 1})}});
  ASSERT_FALSE(out.is_ok());
  EXPECT_NE(out.status().message().find("W must have shape [1,2,1]"), std::string::npos) << out.status().message();
}

TEST(ControlRnn, ActivationParametersGoToTheFunctionsThatTakeThem) {
  ir::Node n = node("GRU", {"X", "W", "R"}, {"Y"});
  KernelInit init{n, 14, Mode::kDefault, {}, {}, {}};
  // Tanh takes nothing; LeakyRelu takes alpha 0.1; ScaledTanh alpha 2 and beta 0.5;
  // HardSigmoid finds no parameters left and keeps its defaults 0.2 / 0.5.
  auto acts = parse_rnn_activations(init, {"Tanh", "LeakyRelu", "scaledtanh", "HardSigmoid"}, {0.1f, 2.0f}, {0.5f});
  ASSERT_TRUE(acts.is_ok()) << acts.status().message();
  EXPECT_FLOAT_EQ((*acts)[1].alpha, 0.1f);
  EXPECT_FLOAT_EQ((*acts)[2].alpha, 2.0f);
  EXPECT_FLOAT_EQ((*acts)[2].beta, 0.5f);
  EXPECT_DOUBLE_EQ((*acts)[3].alpha, 0.2);
  EXPECT_DOUBLE_EQ((*acts)[3].beta, 0.5);
  EXPECT_DOUBLE_EQ((*acts)[1].apply(-2.0), -0.2f * 1.0);
  EXPECT_FALSE(parse_rnn_activations(init, {"Swish"}, {}, {}).is_ok());
}

}  // namespace
}  // namespace twinrt
