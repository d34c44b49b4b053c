// Model-local functions are inlined before compiling, with attribute references bound.
#include <gtest/gtest.h>

#include "runtime/session_impl.h"

namespace twinrt {
namespace {

ir::Node make_node(std::string op, std::vector<std::string> in, std::vector<std::string> out,
                   std::string domain = "") {
  ir::Node n;
  n.op_type = std::move(op);
  n.name = n.op_type;
  n.domain = std::move(domain);
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  return n;
}

ir::ValueInfo float_vector(std::string name, int64_t n) {
  return {std::move(name), ir::TypeInfo::tensor(DataType::kFloat, ir::shape_of({n})), ""};
}

// y = LeakyRelu(x + b, alpha=<caller's slope>) inside function "local:AddLeaky".
ir::Model model_with_function(bool recursive) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports = {{"", 17}, {"local", 1}};
  ir::Function f;
  f.name = "AddLeaky";
  f.domain = "local";
  f.inputs = {"a", "b"};
  f.outputs = {"r"};
  f.attribute_names = {"slope"};
  f.nodes.push_back(make_node("Add", {"a", "b"}, {"s"}));
  ir::Node leaky = make_node(recursive ? "AddLeaky" : "LeakyRelu", {"s"}, {"r"}, recursive ? "local" : "");
  ir::Attribute alpha;
  alpha.name = "alpha";
  alpha.type = ir::Attribute::Type::kFloat;
  alpha.ref_attr_name = "slope";
  leaky.attributes.push_back(alpha);
  f.nodes.push_back(leaky);
  m.functions.push_back(f);

  m.graph = std::make_shared<ir::Graph>();
  m.graph->inputs = {float_vector("x", 3), float_vector("b", 3)};
  m.graph->outputs = {float_vector("y", 3)};
  ir::Node call = make_node("AddLeaky", {"x", "b"}, {"y"}, "local");
  ir::Attribute slope;
  slope.name = "slope";
  slope.type = ir::Attribute::Type::kFloat;
  slope.f = 0.5f;
  call.attributes.push_back(slope);
  m.graph->nodes.push_back(call);
  return m;
}

TEST(InlineFunctions, CallRunsTheBodyWithBoundAttributes) {
  auto s = SessionImpl::create(model_with_function(false), {});
  ASSERT_TRUE(s) << s.status().message();
  auto x = Tensor::from_vector<float>({3}, {-4, 1, 2}).value();
  auto b = Tensor::from_vector<float>({3}, {0, 1, -6}).value();
  auto out = (*s)->run({{"x", Value::of(x)}, {"b", Value::of(b)}});
  ASSERT_TRUE(out) << out.status().message();
  const float* y = out->at("y").tensor.data<float>();
  EXPECT_EQ(y[0], -2.0f);  // LeakyRelu(-4) with alpha 0.5
  EXPECT_EQ(y[1], 2.0f);
  EXPECT_EQ(y[2], -2.0f);
}

TEST(InlineFunctions, RecursionIsRefusedWithAClearError) {
  auto s = SessionImpl::create(model_with_function(true), {});
  ASSERT_FALSE(s);
  EXPECT_NE(s.status().message().find("recursive"), std::string::npos) << s.status().message();
}

}  // namespace
}  // namespace twinrt
