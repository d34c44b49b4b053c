// fuse_qdq_add: DequantizeLinear(a), DequantizeLinear(b) -> Add [-> Relu] -> QuantizeLinear
// becomes one QdqAdd node in every mode, with the separate nodes' bytes (uint8/int8, with
// and without Relu, broadcasting, saturation, more than one block of elements).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "control_model_builder.h"
#include "passes/passes.h"

namespace twinrt {
namespace {

using namespace control_testing;

void add_initializer(ir::Graph& g, const std::string& name, Tensor t) {
  g.initializers[name] = std::move(t);
  g.initializer_order.push_back(name);
}

template <class T>
Tensor zero_point(int v) {
  return make<T>({}, {static_cast<T>(v)});
}

struct Case {
  bool a_unsigned, y_unsigned, relu;
  std::vector<int64_t> a_shape, b_shape;
  float a_scale, b_scale, y_scale;
};

// a, b -> DQ, DQ -> Add [-> Relu] -> Q -> y; `extra_reader` also makes the Add's input a graph output.
ir::Model model(const Case& c, bool extra_reader = false) {
  std::vector<ir::Node> nodes = {node("DequantizeLinear", {"a", "as", "az"}, {"af"}),
                                 node("DequantizeLinear", {"b", "bs", "bz"}, {"bf"}),
                                 node("Add", {"af", "bf"}, {c.relu ? "sum" : "pre"})};
  if (c.relu) nodes.push_back(node("Relu", {"sum"}, {"pre"}));
  nodes.push_back(node("QuantizeLinear", {"pre", "ys", "yz"}, {"y"}));
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i].name = "n" + std::to_string(i);
  const DataType at = c.a_unsigned ? DataType::kUInt8 : DataType::kInt8;
  std::vector<ir::ValueInfo> outputs = {tensor_info("y", c.y_unsigned ? DataType::kUInt8 : DataType::kInt8)};
  if (extra_reader) outputs.push_back(tensor_info("af", DataType::kFloat));
  ir::Graph g = graph(nodes, {tensor_info("a", at), tensor_info("b", at)}, outputs);
  add_initializer(g, "as", make<float>({}, {c.a_scale}));
  add_initializer(g, "bs", make<float>({}, {c.b_scale}));
  add_initializer(g, "ys", make<float>({}, {c.y_scale}));
  add_initializer(g, "az", c.a_unsigned ? zero_point<uint8_t>(131) : zero_point<int8_t>(-7));
  add_initializer(g, "bz", c.a_unsigned ? zero_point<uint8_t>(0) : zero_point<int8_t>(12));
  add_initializer(g, "yz", c.y_unsigned ? zero_point<uint8_t>(c.relu ? 0 : 128) : zero_point<int8_t>(c.relu ? -128 : 3));
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = 13;
  m.graph = std::make_shared<ir::Graph>(std::move(g));
  return m;
}

Tensor bytes(const std::vector<int64_t>& shape, bool is_unsigned, uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<uint8_t> v(static_cast<size_t>(shape_numel(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(i < 256 ? i : gen());  // every byte value first
  if (is_unsigned) return make<uint8_t>(shape, v);
  return make<int8_t>(shape, std::vector<int8_t>(v.begin(), v.end()));
}

std::map<std::string, Value> run(ir::Model m, Mode mode, OptimizationLevel level, const Tensor& a, const Tensor& b,
                                 int threads) {
  SessionOptions options;
  options.mode = mode;
  options.optimization = level;
  options.threads = threads;
  auto session = SessionImpl::create(std::move(m), options);
  EXPECT_TRUE(session.is_ok()) << session.status().message();
  if (!session.is_ok()) return {};
  auto out = (*session)->run({{"a", Value::of(a)}, {"b", Value::of(b)}});
  EXPECT_TRUE(out.is_ok()) << out.status().message();
  return out.is_ok() ? *out : std::map<std::string, Value>{};
}

std::vector<std::string> op_types_after_passes(ir::Model m, Mode mode) {
  passes::optimize(m, OptimizationLevel::kAll, mode);
  std::vector<std::string> ops;
  for (const ir::Node& n : m.graph->nodes) ops.push_back(n.op_type);
  return ops;
}

const Case kResidual{true, true, true, {2, 3, 23, 29}, {2, 3, 23, 29}, 0.02f, 0.013f, 0.031f};

TEST(PassesQdqAdd, ResidualChainBecomesOneNodeInEveryMode) {
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference})
    EXPECT_EQ(op_types_after_passes(model(kResidual), mode), (std::vector<std::string>{"QdqAdd"}));
  ir::Model m = model(kResidual);
  passes::optimize(m, OptimizationLevel::kBasic, Mode::kDefault);
  EXPECT_EQ(m.graph->nodes[0].fused_from, (std::vector<std::string>{"n3", "n0", "n1", "n4"}));
}

TEST(PassesQdqAdd, ValuesReadElsewhereAreNotFused) {
  const auto ops = op_types_after_passes(model(kResidual, true), Mode::kDefault);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "QdqAdd"), 0);
}

TEST(PassesQdqAdd, SameBytesAsTheSeparateNodes) {
  std::vector<Case> cases;
  for (bool a_unsigned : {true, false})
    for (bool y_unsigned : {true, false})
      for (bool relu : {true, false}) {
        // Scales from mild to saturating, and b broadcast over a (per channel, and a scalar).
        cases.push_back({a_unsigned, y_unsigned, relu, {2, 3, 23, 29}, {2, 3, 23, 29}, 0.02f, 0.013f, 0.031f});
        cases.push_back({a_unsigned, y_unsigned, relu, {1, 4, 9, 40}, {1, 4, 1, 1}, 0.5f, 0.25f, 0.01f});
        cases.push_back({a_unsigned, y_unsigned, relu, {3, 1100}, {}, 1e-3f, 7.0f, 0.7f});
      }
  for (const Case& c : cases)
    for (int threads : {1, 2}) {
      const Tensor a = bytes(c.a_shape, c.a_unsigned, 1), b = bytes(c.b_shape, c.a_unsigned, 2);
      auto fused = run(model(c), Mode::kDefault, OptimizationLevel::kAll, a, b, threads);
      auto plain = run(model(c), Mode::kDefault, OptimizationLevel::kNone, a, b, 1);
      ASSERT_TRUE(fused.count("y") && plain.count("y"));
      const Tensor& fy = fused.at("y").tensor;
      const Tensor& py = plain.at("y").tensor;
      ASSERT_EQ(fy.shape(), py.shape());
      ASSERT_EQ(fy.dtype(), py.dtype());
      EXPECT_EQ(std::memcmp(fy.raw(), py.raw(), static_cast<size_t>(fy.numel())), 0)
          << "a_unsigned=" << c.a_unsigned << " y_unsigned=" << c.y_unsigned << " relu=" << c.relu
          << " scales " << c.a_scale << " " << c.b_scale << " " << c.y_scale << " threads=" << threads;
    }
}

}  // namespace
}  // namespace twinrt
