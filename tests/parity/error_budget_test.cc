// The expected-error walk on small hand-built graphs, with K and the budgets computed by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "parity/error_budget.h"

namespace twinrt::parity {
namespace {

constexpr double u32 = 0x1p-24;  // float32 unit roundoff

ir::Node node(std::string op, std::vector<std::string> in, std::vector<std::string> out) {
  ir::Node n;
  n.name = op;
  n.op_type = std::move(op);
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  return n;
}

TensorSummary summary(std::vector<int64_t> shape, double max_abs, DataType dtype = DataType::kFloat) {
  return TensorSummary{dtype, std::move(shape), max_abs, max_abs / 2};
}

// x[1,3,8,8] -> Conv(W[4,3,3,3]) -> c[1,4,6,6] -> Relu -> r -> Flatten -> f[1,144]
//   -> MatMul(B[144,10]) -> y[1,10]
ir::Graph conv_relu_matmul() {
  ir::Graph g;
  g.name = "tiny";
  g.initializers["W"] = Tensor::create(DataType::kFloat, {4, 3, 3, 3}).value();
  g.initializers["B"] = Tensor::create(DataType::kFloat, {144, 10}).value();
  g.nodes = {node("Conv", {"x", "W"}, {"c"}), node("Relu", {"c"}, {"r"}),
             node("Flatten", {"r"}, {"f"}), node("MatMul", {"f", "B"}, {"y"})};
  return g;
}

TEST(ExpectedErrors, ConvReluMatMulByHand) {
  const std::map<std::string, TensorSummary> values = {
      {"x", summary({1, 3, 8, 8}, 1)}, {"c", summary({1, 4, 6, 6}, 4)},
      {"r", summary({1, 4, 6, 6}, 2)}, {"f", summary({1, 144}, 2)}, {"y", summary({1, 10}, 5)}};
  auto e = expected_errors(conv_relu_matmul(), values);
  ASSERT_TRUE(e.is_ok()) << e.status().message();
  const auto& m = e.value();
  EXPECT_DOUBLE_EQ(m.at("x").relative, 0);  // graph input: exact
  // Conv: K = C_in/group * kh * kw = 3 * 3 * 3 = 27; own = 16u sqrt(27) + 2u.
  const double conv = 16 * u32 * std::sqrt(27.0) + 2 * u32;
  EXPECT_EQ(m.at("c").own_reduction_length, 27);
  EXPECT_DOUBLE_EQ(m.at("c").own_relative, conv);
  EXPECT_DOUBLE_EQ(m.at("c").relative, conv);
  EXPECT_DOUBLE_EQ(m.at("c").absolute, conv * 4);
  // Relu rounds nothing and keeps the relative error (gain 1); Flatten moves data.
  EXPECT_DOUBLE_EQ(m.at("r").own_relative, 0);
  EXPECT_DOUBLE_EQ(m.at("r").relative, conv);
  EXPECT_DOUBLE_EQ(m.at("f").relative, conv);
  // MatMul: K = 144, own = 16u * 12 + 2u = 194u, combined with the inherited error in
  // quadrature (independent rounding errors).
  const double y = std::sqrt(194 * u32 * 194 * u32 + conv * conv);
  EXPECT_EQ(m.at("y").own_reduction_length, 144);
  EXPECT_DOUBLE_EQ(m.at("y").own_relative, 194 * u32);
  EXPECT_DOUBLE_EQ(m.at("y").relative, y);
  EXPECT_DOUBLE_EQ(m.at("y").absolute, y * 5);
}

TEST(ExpectedErrors, UnobservedIntermediatesStillCarryError) {
  // Only x and y observed: the Conv's error still reaches y, and K comes from the
  // initializers' shapes.
  const std::map<std::string, TensorSummary> values = {{"x", summary({1, 3, 8, 8}, 1)},
                                                       {"y", summary({1, 10}, 5)}};
  auto e = expected_errors(conv_relu_matmul(), values);
  ASSERT_TRUE(e.is_ok());
  const double conv = 16 * u32 * std::sqrt(27.0) + 2 * u32;
  EXPECT_EQ(e->size(), 2u);
  EXPECT_EQ(e->at("y").own_reduction_length, 144);  // from B[144, 10]
  EXPECT_DOUBLE_EQ(e->at("y").relative, std::sqrt(194 * u32 * 194 * u32 + conv * conv));
}

TEST(ExpectedErrors, ExpTurnsAbsoluteErrorIntoRelative) {
  // x -> Add(x, b) -> s -> Exp -> y. Add: own 2u (K = 1); Exp turns the absolute error
  // 2u * max|s| = 8u into a relative one, next to its own 4u (a transcendental function:
  // libraries approximate it to a few ulps).
  ir::Graph g;
  g.initializers["b"] = Tensor::create(DataType::kFloat, {1}).value();
  g.nodes = {node("Add", {"x", "b"}, {"s"}), node("Exp", {"s"}, {"y"})};
  auto e = expected_errors(g, {{"x", summary({4}, 4)}, {"s", summary({4}, 4)}, {"y", summary({4}, 54.6)}});
  ASSERT_TRUE(e.is_ok());
  EXPECT_DOUBLE_EQ(e->at("s").relative, 2 * u32);
  EXPECT_DOUBLE_EQ(e->at("y").own_relative, 4 * u32);
  EXPECT_DOUBLE_EQ(e->at("y").relative, std::sqrt(16.0 + 64.0) * u32);
}

TEST(ExpectedErrors, DtypesCastsIntegersAndUnknownOps) {
  ir::Graph g;
  g.nodes = {node("Cast", {"x"}, {"h"}), node("Transpose", {"h"}, {"t"}),
             node("Shape", {"t"}, {"n"}), node("FancyOp", {"x"}, {"z"})};
  const std::map<std::string, TensorSummary> values = {
      {"x", summary({2, 3}, 1)}, {"h", summary({2, 3}, 1, DataType::kFloat16)},
      {"t", summary({3, 2}, 1, DataType::kFloat16)}, {"n", summary({2}, 3, DataType::kInt64)},
      {"z", summary({2, 3}, 1)}};
  auto e = expected_errors(g, values);
  ASSERT_TRUE(e.is_ok());
  EXPECT_DOUBLE_EQ(e->at("h").relative, 0x1p-11);  // one rounding to float16
  EXPECT_DOUBLE_EQ(e->at("t").relative, 0x1p-11);  // data movement keeps it
  EXPECT_DOUBLE_EQ(e->at("n").absolute, 0);        // shapes are exact
  EXPECT_DOUBLE_EQ(e->at("z").relative, 2 * u32);  // unknown op: 2u
}

TEST(ExpectedErrors, Float16SumsAccumulateInFloat32AndRoundOnceInFloat16) {
  ir::Graph g = conv_relu_matmul();
  g.initializers["W"] = Tensor::create(DataType::kFloat16, {4, 3, 3, 3}).value();
  auto e = expected_errors(g, {{"x", summary({1, 3, 8, 8}, 1, DataType::kFloat16)},
                               {"c", summary({1, 4, 6, 6}, 4, DataType::kFloat16)}});
  ASSERT_TRUE(e.is_ok());
  EXPECT_DOUBLE_EQ(e->at("c").own_relative, 16 * u32 * std::sqrt(27.0) + 2 * 0x1p-11);
}

TEST(ExpectedErrors, SaturatesWhereCancellationWouldExceedTheValues) {
  // d = c - c2 cancels two values near 1000 down to 1e-4: the absolute errors of c and c2
  // (about 1e-3 relative each, float16) are ~1e4 times d's magnitude. The estimate stops at
  // "as large as the values" and says so.
  ir::Graph g = conv_relu_matmul();
  g.nodes = {node("Conv", {"x", "W"}, {"c"}), node("Conv", {"x", "W"}, {"c2"}), node("Sub", {"c", "c2"}, {"d"}),
             node("Relu", {"d"}, {"r"})};
  const DataType h = DataType::kFloat16;
  auto e = expected_errors(g, {{"x", summary({1, 3, 8, 8}, 1, h)}, {"c", summary({1, 4, 6, 6}, 1000, h)},
                               {"c2", summary({1, 4, 6, 6}, 1000, h)}, {"d", summary({1, 4, 6, 6}, 1e-4, h)},
                               {"r", summary({1, 4, 6, 6}, 1e-4, h)}});
  ASSERT_TRUE(e.is_ok());
  EXPECT_FALSE(e->at("c").saturated);
  for (const char* name : {"d", "r"}) {  // the mark carries downstream
    EXPECT_TRUE(e->at(name).saturated) << name;
    EXPECT_DOUBLE_EQ(e->at(name).relative, kSaturatedRelative) << name;
    EXPECT_DOUBLE_EQ(e->at(name).absolute, 1e-4) << name;
  }
}

TEST(ExpectedErrors, QuantizersOfErringFloatsAreNotEstimable) {
  // x -> DynamicQuantizeLinear -> MatMulInteger -> Cast -> Mul(scale) -> y: the input is
  // exact, so the first quantizer only rounds (one step) and everything stays estimable.
  // Behind a Conv (which rounds), the quantizer's steps are no longer estimable, and
  // neither is anything computed from them.
  auto chain = [](const std::string& from) {
    return std::vector<ir::Node>{node("DynamicQuantizeLinear", {from}, {"q", "s", "z"}),
                                 node("MatMulInteger", {"q", "B", "z"}, {"acc"}), node("Cast", {"acc"}, {"f"}),
                                 node("Mul", {"f", "s"}, {"y"})};
  };
  ir::Graph g;
  g.initializers["B"] = Tensor::create(DataType::kUInt8, {4, 2}).value();
  g.initializers["W"] = Tensor::create(DataType::kFloat, {1, 1, 1, 1}).value();
  g.nodes = chain("x");
  const std::map<std::string, TensorSummary> values = {
      {"x", summary({1, 4}, 1)}, {"q", summary({1, 4}, 255, DataType::kUInt8)}, {"s", summary({}, 0.004)},
      {"z", summary({}, 128, DataType::kUInt8)}, {"acc", summary({1, 2}, 4000, DataType::kInt32)},
      {"f", summary({1, 2}, 4000)}, {"y", summary({1, 2}, 16)}};
  auto exact_input = expected_errors(g, values);
  ASSERT_TRUE(exact_input.is_ok());
  EXPECT_DOUBLE_EQ(exact_input->at("q").own_relative, 1.0 / 255);  // one step of 255
  // Integer sums keep the largest error of their integer inputs: the zero point's step in 128.
  EXPECT_DOUBLE_EQ(exact_input->at("acc").relative, 1.0 / 128);
  EXPECT_TRUE(exact_input->at("y").not_estimable.empty());
  EXPECT_GT(exact_input->at("y").relative, 1.0 / 255);

  g.nodes = chain("c");
  g.nodes.insert(g.nodes.begin(), node("Conv", {"x4", "W"}, {"c"}));
  std::map<std::string, TensorSummary> behind_conv = values;
  behind_conv["c"] = summary({1, 4}, 1);
  auto e = expected_errors(g, behind_conv);
  ASSERT_TRUE(e.is_ok());
  EXPECT_TRUE(e->at("s").not_estimable.empty());  // the scale is a float division of the range
  for (const char* name : {"q", "z", "acc", "f", "y"}) {
    EXPECT_EQ(e->at(name).not_estimable,
              "DynamicQuantizeLinear rounds a float input that carries rounding error to integers") << name;
    EXPECT_DOUBLE_EQ(e->at(name).absolute, 0) << name;
  }
}

TEST(ExpectedErrors, CycleIsAnError) {
  ir::Graph g;
  g.nodes = {node("Add", {"a", "x"}, {"b"}), node("Add", {"b", "x"}, {"a"})};
  auto e = expected_errors(g, {});
  ASSERT_FALSE(e.is_ok());
  EXPECT_NE(e.status().message().find("cycle"), std::string::npos);
}

TEST(Summarize, MaxAbsAndRmsOfFiniteValues) {
  auto t = Tensor::from_vector<float>({4}, {3, -4, std::nanf(""), 0}).value();
  TensorSummary s = summarize(t);
  EXPECT_DOUBLE_EQ(s.max_abs, 4);
  EXPECT_DOUBLE_EQ(s.rms, std::sqrt(25.0 / 3));
  EXPECT_EQ(s.dtype, DataType::kFloat);
}

}  // namespace
}  // namespace twinrt::parity
