// fuse_qdq: DequantizeLinear -> Conv/MatMul [-> Relu] -> QuantizeLinear groups become
// QLinearConv / QLinearMatMul in default mode, the results stay within one quantization
// step of the float graph, and groups that would change more than that are left alone.
// A Gemm of dequantized operands becomes QGemm with float output (float rounding only).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "passes/passes.h"
#include "passes_test_util.h"

namespace twinrt {
namespace {

using namespace control_testing;

std::vector<float> random_floats(size_t n, uint32_t seed, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

constexpr float kXScale = 0.01f, kYScale = 0.05f;

// x -> Q -> DQ -> op(DQ(w) [, DQ(b)]) [-> Relu] -> Q(y_zero) -> DQ -> y
ir::Model qdq_model(bool conv, bool relu, uint8_t y_zero) {
  const std::string op_out = relu ? "pre" : "acc";
  std::vector<ir::Node> nodes = {
      node("QuantizeLinear", {"x", "xs", "xz"}, {"xq"}),
      node("DequantizeLinear", {"xq", "xs", "xz"}, {"xf"}),
      node("DequantizeLinear", {"wq", "ws", "wz"}, {"wf"}, {int_attr("axis", conv ? 0 : 1)}),
  };
  if (conv) {
    nodes.push_back(node("DequantizeLinear", {"bq", "bs", "bz"}, {"bf"}, {int_attr("axis", 0)}));
    nodes.push_back(node("Conv", {"xf", "wf", "bf"}, {op_out}, {ints_attr("pads", {1, 1, 1, 1})}));
  } else {
    nodes.push_back(node("MatMul", {"xf", "wf"}, {op_out}));
  }
  if (relu) nodes.push_back(node("Relu", {"pre"}, {"acc"}));
  nodes.push_back(node("QuantizeLinear", {"acc", "ys", "yz"}, {"yq"}));
  nodes.push_back(node("DequantizeLinear", {"yq", "ys", "yz"}, {"y"}));
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i].name = "n" + std::to_string(i);
  ir::Graph g = graph(nodes, {tensor_info("x", DataType::kFloat)}, {tensor_info("y", DataType::kFloat)});
  const int64_t channels = 8;
  add_initializer(g, "xs", make<float>({}, {kXScale}));
  add_initializer(g, "xz", make<uint8_t>({}, {100}));
  add_initializer(g, "ys", make<float>({}, {kYScale}));
  add_initializer(g, "yz", make<uint8_t>({}, {y_zero}));
  std::vector<float> ws(channels);
  std::vector<int8_t> wz(channels, 0);
  for (int64_t m = 0; m < channels; ++m) ws[m] = 0.002f * static_cast<float>(m + 1);
  add_initializer(g, "ws", make<float>({channels}, ws));
  add_initializer(g, "wz", make<int8_t>({channels}, wz));
  std::vector<int64_t> w_shape = conv ? std::vector<int64_t>{channels, 3, 3, 3} : std::vector<int64_t>{12, channels};
  std::vector<int8_t> w(static_cast<size_t>(shape_numel(w_shape)));
  std::mt19937 gen(4);
  for (int8_t& v : w) v = static_cast<int8_t>(static_cast<int>(gen() % 255) - 127);
  add_initializer(g, "wq", make<int8_t>(w_shape, w));
  if (conv) {
    std::vector<float> bs(channels);
    std::vector<int32_t> bq(channels), bz(channels, 0);
    for (int64_t m = 0; m < channels; ++m) {
      bs[m] = kXScale * ws[m];
      bq[m] = static_cast<int32_t>(m * 300) - 1000;
    }
    add_initializer(g, "bs", make<float>({channels}, bs));
    add_initializer(g, "bz", make<int32_t>({channels}, bz));
    add_initializer(g, "bq", make<int32_t>({channels}, bq));
  }
  return model_of(std::move(g), 13);
}

Tensor input(bool conv) {
  const std::vector<int64_t> shape = conv ? std::vector<int64_t>{1, 3, 7, 6} : std::vector<int64_t>{5, 12};
  return make<float>(shape, random_floats(static_cast<size_t>(shape_numel(shape)), 9, -1.0f, 1.5f));
}

Tensor run(ir::Model m, Mode mode, OptimizationLevel level, const Tensor& x) {
  SessionOptions options;
  options.mode = mode;
  options.optimization = level;
  auto session = SessionImpl::create(std::move(m), options);
  EXPECT_TRUE(session.is_ok()) << session.status().message();
  if (!session.is_ok()) return {};
  auto out = (*session)->run({{"x", Value::of(x)}});
  EXPECT_TRUE(out.is_ok()) << out.status().message();
  return out.is_ok() ? out->at("y").tensor : Tensor{};
}

std::vector<std::string> op_types_after_passes(ir::Model m, Mode mode) {
  passes::optimize(m, OptimizationLevel::kAll, mode);
  std::vector<std::string> ops;
  for (const ir::Node& n : m.graph->nodes) ops.push_back(n.op_type);
  return ops;
}

TEST(PassesQdq, ConvReluGroupBecomesQLinearConv) {
  const auto ops = op_types_after_passes(qdq_model(true, true, 0), Mode::kDefault);
  EXPECT_EQ(ops, (std::vector<std::string>{"QuantizeLinear", "QLinearConv", "DequantizeLinear"}));
  ir::Model m = qdq_model(true, true, 0);
  passes::optimize(m, OptimizationLevel::kAll, Mode::kDefault);
  EXPECT_EQ(m.graph->nodes[1].fused_from, (std::vector<std::string>{"n1", "n2", "n5", "n6"}));
}

TEST(PassesQdq, MatMulGroupBecomesQLinearMatMul) {
  EXPECT_EQ(op_types_after_passes(qdq_model(false, false, 128), Mode::kDefault),
            (std::vector<std::string>{"QuantizeLinear", "QLinearMatMul", "DequantizeLinear"}));
}

TEST(PassesQdq, ReferenceModeKeepsTheFloatGraph) {
  EXPECT_EQ(op_types_after_passes(qdq_model(true, false, 0), Mode::kReference).size(), 7u);
}

TEST(PassesQdq, ReluWithAZeroPointAboveTheMinimumIsNotAbsorbed) {
  const auto ops = op_types_after_passes(qdq_model(true, true, 10), Mode::kDefault);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "QLinearConv"), 0);
}

TEST(PassesQdq, FusedOutputsStayWithinOneStepOfTheFloatGraph) {
  for (bool conv : {true, false})
    for (bool relu : {true, false}) {
      const uint8_t y_zero = relu ? 0 : 128;
      const Tensor x = input(conv);
      const Tensor fused = run(qdq_model(conv, relu, y_zero), Mode::kDefault, OptimizationLevel::kAll, x);
      const Tensor plain = run(qdq_model(conv, relu, y_zero), Mode::kDefault, OptimizationLevel::kNone, x);
      ASSERT_EQ(fused.shape(), plain.shape());
      int nonzero = 0;
      for (int64_t i = 0; i < fused.numel(); ++i) {
        EXPECT_LE(std::fabs(fused.data<float>()[i] - plain.data<float>()[i]), kYScale * 1.001f) << i;
        nonzero += plain.data<float>()[i] != 0.0f;
      }
      EXPECT_GT(nonzero, fused.numel() / 4) << "the test data should not saturate to zero";
    }
}

// x -> Q -> DQ -> Gemm(·, DQ(w) [, DQ(c int32)]) -> y: the classifier of a static QDQ model.
ir::Model qdq_gemm_model(bool trans_b, bool bias, std::vector<ir::Attribute> extra) {
  constexpr int64_t k = 12, n = 7;
  std::vector<ir::Node> nodes = {
      node("QuantizeLinear", {"x", "xs", "xz"}, {"xq"}),
      node("DequantizeLinear", {"xq", "xs", "xz"}, {"xf"}),
      node("DequantizeLinear", {"wq", "ws", "wz"}, {"wf"}, {int_attr("axis", trans_b ? 0 : 1)}),
  };
  std::vector<std::string> gemm_inputs = {"xf", "wf"};
  if (bias) {
    nodes.push_back(node("DequantizeLinear", {"bq", "bs", "bz"}, {"bf"}, {int_attr("axis", 0)}));
    gemm_inputs.push_back("bf");
  }
  extra.push_back(int_attr("transB", trans_b ? 1 : 0));
  nodes.push_back(node("Gemm", gemm_inputs, {"y"}, extra));
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i].name = "n" + std::to_string(i);
  ir::Graph g = graph(nodes, {tensor_info("x", DataType::kFloat)}, {tensor_info("y", DataType::kFloat)});
  add_initializer(g, "xs", make<float>({}, {kXScale}));
  add_initializer(g, "xz", make<uint8_t>({}, {100}));
  std::vector<float> ws(n), bs(n);
  std::vector<int32_t> bq(n), bz(n, 0);
  for (int64_t j = 0; j < n; ++j) {
    ws[j] = 0.002f * static_cast<float>(j + 1);
    bs[j] = kXScale * ws[j];
    bq[j] = static_cast<int32_t>(j * 300) - 1000;
  }
  add_initializer(g, "ws", make<float>({n}, ws));
  add_initializer(g, "wz", make<int8_t>({n}, std::vector<int8_t>(n, 0)));
  std::vector<int8_t> w(k * n);
  std::mt19937 gen(5);
  for (int8_t& v : w) v = static_cast<int8_t>(static_cast<int>(gen() % 255) - 127);
  add_initializer(g, "wq", make<int8_t>(trans_b ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}, w));
  add_initializer(g, "bs", make<float>({n}, bs));
  add_initializer(g, "bz", make<int32_t>({n}, bz));
  add_initializer(g, "bq", make<int32_t>({n}, bq));
  return model_of(std::move(g), 13);
}

TEST(PassesQdq, GemmOfDequantizedOperandsBecomesQGemm) {
  for (bool trans_b : {true, false})
    for (bool bias : {true, false}) {
      ir::Model m = qdq_gemm_model(trans_b, bias, {});
      passes::optimize(m, OptimizationLevel::kAll, Mode::kDefault);
      ASSERT_EQ(m.graph->nodes.size(), 2u);
      EXPECT_EQ(m.graph->nodes[1].op_type, "QGemm");
      EXPECT_EQ(m.graph->nodes[1].fused_from.size(), bias ? 3u : 2u);
      // Integer sums scaled once against a float sum of dequantized products: float rounding only.
      const Tensor x = input(false);
      const Tensor fused = run(qdq_gemm_model(trans_b, bias, {}), Mode::kDefault, OptimizationLevel::kAll, x);
      const Tensor plain = run(qdq_gemm_model(trans_b, bias, {}), Mode::kDefault, OptimizationLevel::kNone, x);
      ASSERT_EQ(fused.shape(), plain.shape());
      ASSERT_EQ(fused.shape(), (std::vector<int64_t>{5, 7}));
      for (int64_t i = 0; i < fused.numel(); ++i)
        EXPECT_NEAR(fused.data<float>()[i], plain.data<float>()[i], 1e-5f * (1.0f + std::fabs(plain.data<float>()[i]))) << i;
    }
}

TEST(PassesQdq, GemmWithAlphaOrBetaOtherThanOneStaysFloat) {
  for (const char* name : {"alpha", "beta"}) {
    const auto ops = op_types_after_passes(qdq_gemm_model(true, true, {float_attr(name, 0.5f)}), Mode::kDefault);
    EXPECT_EQ(std::count(ops.begin(), ops.end(), "Gemm"), 1) << name;
  }
  const auto ops = op_types_after_passes(qdq_gemm_model(true, true, {}), Mode::kReference);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "Gemm"), 1);
}

}  // namespace
}  // namespace twinrt
