// fuse_matmul_integer_to_float: DynamicQuantizeLinear -> MatMulInteger -> Cast -> Mul(scale
// product) [-> Add bias] (what `twinrt quantize --dynamic` writes) becomes one
// MatMulIntegerToFloat node in every mode, with the separate nodes' float bits: bias or
// not, per-tensor or per-column weight scales and zero points, a -0 product, sizes below and
// above the 6 x 8 tile, 1 and 2 threads.
#include <gtest/gtest.h>

#include <algorithm>

#include "passes/passes.h"
#include "passes_test_util.h"

namespace twinrt {
namespace {

using namespace control_testing;

struct Case {
  int64_t m, k, n;
  bool bias, per_column, b_zero, scale_first;  // scale_first: Mul(s, f) instead of Mul(f, s)
};

ir::Model model(const Case& c, bool extra_reader = false) {
  std::vector<ir::Node> nodes = {
      node("DynamicQuantizeLinear", {"x"}, {"xq", "xs", "xz"}),
      node("MatMulInteger", {"xq", "w", "xz", c.b_zero ? "wz" : ""}, {"acc"}),
      node("Cast", {"acc"}, {"f"}, {int_attr("to", 1)}),
      node("Mul", {"xs", "ws"}, {"s"}),
      node("Mul", c.scale_first ? std::vector<std::string>{"s", "f"} : std::vector<std::string>{"f", "s"},
           {c.bias ? "p" : "y"})};
  if (c.bias) nodes.push_back(node("Add", {"bias", "p"}, {"y"}));
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i].name = "n" + std::to_string(i);
  std::vector<ir::ValueInfo> outputs = {tensor_info("y", DataType::kFloat)};
  if (extra_reader) outputs.push_back(tensor_info("f", DataType::kFloat));
  ir::Graph g = graph(nodes, {tensor_info("x", DataType::kFloat)}, outputs);
  std::mt19937 gen(static_cast<uint32_t>(c.k * 31 + c.n));
  std::vector<int8_t> w(static_cast<size_t>(c.k * c.n));
  for (size_t i = 0; i < w.size(); ++i) w[i] = i % static_cast<size_t>(c.n) == 0 ? 0 : static_cast<int8_t>(gen());
  add_initializer(g, "w", make<int8_t>({c.k, c.n}, w));  // column 0 is 0: with a negative scale, -0
  const int64_t scales = c.per_column ? c.n : 1;
  std::vector<float> ws(static_cast<size_t>(scales));
  for (size_t j = 0; j < ws.size(); ++j) ws[j] = (j == 0 ? -1.0f : 1.0f) * 0.001f * static_cast<float>(j + 3);
  add_initializer(g, "ws", c.per_column ? make<float>({c.n}, ws) : make<float>({}, ws));
  if (c.b_zero) {
    std::vector<int8_t> z(static_cast<size_t>(scales));
    for (size_t j = 0; j < z.size(); ++j) z[j] = j == 0 ? 0 : static_cast<int8_t>(static_cast<int>(j % 7) - 3);
    add_initializer(g, "wz", c.per_column ? make<int8_t>({c.n}, z) : make<int8_t>({}, z));
  }
  if (c.bias) add_initializer(g, "bias", random_floats({c.n}, 5, -1.0f, 1.0f));
  return model_of(std::move(g), 13);
}

std::vector<std::string> op_types_after_passes(ir::Model m, Mode mode) {
  passes::optimize(m, OptimizationLevel::kAll, mode);
  std::vector<std::string> ops;
  for (const ir::Node& n : m.graph->nodes) ops.push_back(n.op_type);
  return ops;
}

const Case kBert{13, 37, 21, true, true, false, false};

TEST(PassesMatMulToFloat, ChainBecomesOneNodeInEveryMode) {
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference})
    EXPECT_EQ(op_types_after_passes(model(kBert), mode),
              (std::vector<std::string>{"DynamicQuantizeLinear", "MatMulIntegerToFloat"}));
  ir::Model m = model(kBert);
  passes::optimize(m, OptimizationLevel::kBasic, Mode::kDefault);
  EXPECT_EQ(m.graph->nodes[1].fused_from, (std::vector<std::string>{"n2", "n4", "n5", "n3"}));
}

TEST(PassesMatMulToFloat, ValuesReadElsewhereAreNotFused) {
  const auto ops = op_types_after_passes(model(kBert, true), Mode::kDefault);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "MatMulIntegerToFloat"), 0);
}

TEST(PassesMatMulToFloat, SameBitsAsTheSeparateNodes) {
  std::vector<Case> cases;
  for (bool bias : {true, false})
    for (bool per_column : {true, false})
      for (bool b_zero : {false, true}) {
        cases.push_back({13, 37, 21, bias, per_column, b_zero, false});
        cases.push_back({1, 5, 3, bias, per_column, b_zero, true});
        cases.push_back({50, 300, 70, bias, per_column, b_zero, !bias});
      }
  for (const Case& c : cases)
    for (Mode mode : {Mode::kDefault, Mode::kExact})
      for (int threads : {1, 2}) {
        const std::map<std::string, Tensor> feeds = {{"x", random_floats({2, c.m, c.k}, 3, -3.0f, 5.0f)}};
        const Tensor fused = run_model(model(c), mode, OptimizationLevel::kAll, feeds, threads);
        const Tensor plain = run_model(model(c), mode, OptimizationLevel::kNone, feeds, 1);
        EXPECT_TRUE(same_bits(fused, plain)) << "m=" << c.m << " k=" << c.k << " n=" << c.n << " bias=" << c.bias
                                             << " per_column=" << c.per_column << " b_zero=" << c.b_zero
                                             << " threads=" << threads;
        if (!c.bias) {  // column 0: 0 * a negative scale is -0, which "+ 0" would have made +0
          EXPECT_TRUE(std::signbit(fused.data<float>()[0]));
        }
      }
}

// Quantized activations fed directly (uint8 x uint8), a constant a_scale, no zero points:
// the fused node's optional inputs are left empty and the bits still match.
TEST(PassesMatMulToFloat, ConstantScalesWithoutZeroPoints) {
  const int64_t k = 19, n = 11;
  ir::Graph g = graph({node("MatMulInteger", {"xq", "w"}, {"acc"}), node("Cast", {"acc"}, {"f"}, {int_attr("to", 1)}),
                       node("Mul", {"ws", "xs"}, {"s"}), node("Mul", {"f", "s"}, {"p"}), node("Add", {"p", "bias"}, {"y"})},
                      {tensor_info("xq", DataType::kUInt8)}, {tensor_info("y", DataType::kFloat)});
  std::vector<uint8_t> w(static_cast<size_t>(k * n)), x(static_cast<size_t>(7 * k));
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<uint8_t>(i * 37 + 11);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint8_t>(i * 91 + 5);
  add_initializer(g, "w", make<uint8_t>({k, n}, w));
  add_initializer(g, "xs", make<float>({1}, {0.037f}));
  add_initializer(g, "ws", random_floats({n}, 8, 0.001f, 0.01f));
  add_initializer(g, "bias", random_floats({n}, 9, -1.0f, 1.0f));
  const ir::Model m = model_of(std::move(g), 13);
  EXPECT_EQ(op_types_after_passes(m, Mode::kDefault), (std::vector<std::string>{"MatMulIntegerToFloat"}));
  const std::map<std::string, Tensor> feeds = {{"xq", make<uint8_t>({7, k}, x)}};
  for (int threads : {1, 2})
    EXPECT_TRUE(same_bits(run_model(m, Mode::kDefault, OptimizationLevel::kAll, feeds, threads),
                          run_model(m, Mode::kDefault, OptimizationLevel::kNone, feeds, 1)));
}

}  // namespace
}  // namespace twinrt
