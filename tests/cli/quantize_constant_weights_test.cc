// Weights held by Constant nodes (Paddle2ONNX's export, e.g. PaddleOCR) are quantized like
// initializers: quantize's preparation turns such Constants into initializers of the same
// name. A Constant that is also a graph output stays a node.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "quantize/quantize.h"

namespace twinrt::quantize {
namespace {

ir::Node constant_node(const std::string& name, Tensor t) {
  ir::Node n;
  n.name = name;
  n.op_type = "Constant";
  n.outputs = {name};
  ir::Attribute a;
  a.name = "value";
  a.type = ir::Attribute::Type::kTensor;
  a.t = std::move(t);
  n.attributes.push_back(std::move(a));
  return n;
}

// x [2, 3] -> MatMul with a Constant's [3, 4] weights -> y; plus a Constant graph output.
ir::Model matmul_with_constant_weights() {
  auto g = std::make_shared<ir::Graph>();
  g->name = "g";
  g->inputs = {{"x", ir::TypeInfo::tensor(DataType::kFloat, ir::Shape{ir::Dim::of(2), ir::Dim::of(3)})}};
  g->outputs = {{"y", ir::TypeInfo::tensor(DataType::kFloat)}, {"k", ir::TypeInfo::tensor(DataType::kFloat)}};
  g->nodes.push_back(constant_node("w", *Tensor::from_vector<float>({3, 4}, {1, -2, 3, 4, 5, 6, -7, 8, 9, 10, 11, -12})));
  g->nodes.push_back(constant_node("k", *Tensor::from_vector<float>({1}, {0.5f})));
  ir::Node mm;
  mm.name = "mm";
  mm.op_type = "MatMul";
  mm.inputs = {"x", "w"};
  mm.outputs = {"y"};
  g->nodes.push_back(mm);
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = 13;
  m.graph = g;
  return m;
}

TEST(QuantizeConstantWeights, ConstantNodesAreQuantizedLikeInitializers) {
  ir::Model model = matmul_with_constant_weights();
  auto summary = quantize_dynamic(model, QuantizeOptions{});
  ASSERT_TRUE(summary.is_ok()) << summary.status().message();
  EXPECT_EQ(summary->quantized["MatMul"], 1);
  EXPECT_EQ(summary->weights_quantized, 12);
  const auto& nodes = model.graph->nodes;
  const auto constants = std::count_if(nodes.begin(), nodes.end(), [](const ir::Node& n) { return n.op_type == "Constant"; });
  EXPECT_EQ(constants, 1);  // the graph output 'k' stays a Constant
  EXPECT_TRUE(std::any_of(nodes.begin(), nodes.end(), [](const ir::Node& n) { return n.outputs == std::vector<std::string>{"k"}; }));
  EXPECT_EQ(model.graph->initializers.count("k"), 0u);
}

}  // namespace
}  // namespace twinrt::quantize
