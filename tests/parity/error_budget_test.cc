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
  // 2u * max|s| = 8u into a relative one, next to its own 2u.
  ir::Graph g;
  g.initializers["b"] = Tensor::create(DataType::kFloat, {1}).value();
  g.nodes = {node("Add", {"x", "b"}, {"s"}), node("Exp", {"s"}, {"y"})};
  auto e = expected_errors(g, {{"x", summary({4}, 4)}, {"s", summary({4}, 4)}, {"y", summary({4}, 54.6)}});
  ASSERT_TRUE(e.is_ok());
  EXPECT_DOUBLE_EQ(e->at("s").relative, 2 * u32);
  EXPECT_DOUBLE_EQ(e->at("y").relative, std::sqrt(4.0 + 64.0) * u32);
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
