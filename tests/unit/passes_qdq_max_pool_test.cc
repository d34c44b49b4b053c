// fuse_qdq_max_pool: DequantizeLinear -> MaxPool -> QuantizeLinear with one scale and zero
// point becomes a MaxPool on the 8-bit tensor in every mode, with the three nodes' bytes
// (uint8 and int8, every byte value, scales whose round trip is inexact in float, padding,
// strides, dilation, ceil mode); and what must stay unfused.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "control_model_builder.h"
#include "passes/passes.h"

namespace twinrt {
namespace {

using namespace control_testing;

struct Case {
  bool is_unsigned = true;
  float scale = 0.1f, q_scale = 0.1f;
  int zero = 3, q_zero = 3;
  bool read_elsewhere = false;  // the float values are also a graph output
  std::vector<ir::Attribute> pool = {ints_attr("kernel_shape", {3, 3}), ints_attr("strides", {2, 2}),
                                     ints_attr("pads", {1, 1, 1, 1})};
};

ir::Model model(const Case& c) {
  std::vector<ir::Node> nodes = {node("DequantizeLinear", {"x", "s", "z"}, {"xf"}),
                                 node("MaxPool", {"xf"}, {"pf"}, c.pool),
                                 node("QuantizeLinear", {"pf", "qs", "qz"}, {"y"})};
  const char* names[] = {"dq", "pool", "q"};
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i].name = names[i];
  const DataType t = c.is_unsigned ? DataType::kUInt8 : DataType::kInt8;
  std::vector<ir::ValueInfo> outputs = {tensor_info("y", t)};
  if (c.read_elsewhere) outputs.push_back(tensor_info("xf", DataType::kFloat));
  ir::Graph g = graph(nodes, {tensor_info("x", t)}, outputs);
  const auto zero = [&](int v) {
    return c.is_unsigned ? make<uint8_t>({}, {static_cast<uint8_t>(v)}) : make<int8_t>({}, {static_cast<int8_t>(v)});
  };
  g.initializers["s"] = make<float>({}, {c.scale});
  g.initializers["qs"] = make<float>({}, {c.q_scale});
  g.initializers["z"] = zero(c.zero);
  g.initializers["qz"] = zero(c.q_zero);
  g.initializer_order = {"s", "qs", "z", "qz"};
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = 13;
  m.graph = std::make_shared<ir::Graph>(std::move(g));
  return m;
}

std::vector<std::string> op_types_after_passes(const Case& c, Mode mode) {
  ir::Model m = model(c);
  passes::optimize(m, OptimizationLevel::kAll, mode);
  std::vector<std::string> ops;
  for (const ir::Node& n : m.graph->nodes) ops.push_back(n.op_type);
  return ops;
}

Tensor every_byte_then_random(const std::vector<int64_t>& shape, bool is_unsigned) {
  std::mt19937 gen(5);
  std::vector<uint8_t> v(static_cast<size_t>(shape_numel(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(i < 256 ? i : gen());
  if (is_unsigned) return make<uint8_t>(shape, v);
  return make<int8_t>(shape, std::vector<int8_t>(v.begin(), v.end()));
}

Tensor run(const Case& c, OptimizationLevel level, const Tensor& x, int threads) {
  SessionOptions options;
  options.optimization = level;
  options.threads = threads;
  auto session = SessionImpl::create(model(c), options);
  EXPECT_TRUE(session.is_ok()) << session.status().message();
  if (!session.is_ok()) return {};
  auto out = (*session)->run({{"x", Value::of(x)}});
  EXPECT_TRUE(out.is_ok()) << out.status().message();
  return out.is_ok() ? out->at("y").tensor : Tensor{};
}

TEST(PassesQdqMaxPool, TheChainBecomesAnEightBitPoolInEveryMode) {
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference})
    EXPECT_EQ(op_types_after_passes(Case{}, mode), (std::vector<std::string>{"MaxPool"}));
  ir::Model m = model(Case{});
  passes::optimize(m, OptimizationLevel::kBasic, Mode::kDefault);
  EXPECT_EQ(m.graph->nodes[0].name, "pool");
  EXPECT_EQ(m.graph->nodes[0].fused_from, (std::vector<std::string>{"dq", "q"}));
}

TEST(PassesQdqMaxPool, OnlyWhenBothEndsAgreeAndNothingElseReads) {
  const std::vector<std::string> unfused = {"DequantizeLinear", "MaxPool", "QuantizeLinear"};
  Case other_scale;
  other_scale.q_scale = 0.2f;
  Case other_zero;
  other_zero.q_zero = 4;
  Case read_elsewhere;
  read_elsewhere.read_elsewhere = true;
  Case subnormal;
  subnormal.scale = subnormal.q_scale = 1e-40f;
  Case negative;
  negative.scale = negative.q_scale = -0.1f;
  for (const Case& c : {other_scale, other_zero, read_elsewhere, subnormal, negative})
    EXPECT_EQ(op_types_after_passes(c, Mode::kDefault), unfused);
}

TEST(PassesQdqMaxPool, SameBytesAsTheThreeNodes) {
  std::vector<Case> cases;
  for (bool is_unsigned : {true, false})
    for (float scale : {0.1f, 1.0f / 3.0f, 0.0078125f, 7.3f, 1e-30f, 1e30f})
      for (int zero : {0, 77, 200}) {
        Case c;
        c.is_unsigned = is_unsigned;
        c.scale = c.q_scale = scale;
        c.zero = c.q_zero = is_unsigned ? zero : zero - 128;
        cases.push_back(c);
      }
  Case dilated_ceil;
  dilated_ceil.pool = {ints_attr("kernel_shape", {2, 3}), ints_attr("dilations", {2, 1}), int_attr("ceil_mode", 1),
                       ints_attr("strides", {2, 2})};
  cases.push_back(dilated_ceil);
  for (const Case& c : cases) {
    const Tensor x = every_byte_then_random({2, 3, 17, 19}, c.is_unsigned);
    const Tensor plain = run(c, OptimizationLevel::kNone, x, 1);
    for (int threads : {1, 2}) {
      const Tensor fused = run(c, OptimizationLevel::kAll, x, threads);
      ASSERT_EQ(fused.dtype(), plain.dtype());
      ASSERT_EQ(fused.shape(), plain.shape());
      EXPECT_EQ(std::memcmp(fused.raw(), plain.raw(), plain.nbytes()), 0)
          << "scale " << c.scale << " zero " << c.zero << (c.is_unsigned ? " uint8" : " int8") << " threads " << threads;
    }
  }
}

}  // namespace
}  // namespace twinrt
