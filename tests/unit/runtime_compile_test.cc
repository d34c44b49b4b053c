// Compile-time behaviour: initializer defaults that feeds may replace, folding and dim overrides.
#include <gtest/gtest.h>

#include "runtime/session_impl.h"

namespace twinrt {
namespace {

ir::ValueInfo float_info(std::string name, ir::Shape shape) {
  return {std::move(name), ir::TypeInfo::tensor(DataType::kFloat, std::move(shape)), ""};
}

ir::Node node(std::string op, std::vector<std::string> in, std::vector<std::string> out) {
  ir::Node n;
  n.op_type = std::move(op);
  n.name = n.op_type;
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  return n;
}

// y = x + w, where w is an initializer that is also listed as a graph input (IR < 4 style).
ir::Model add_with_default_weight() {
  ir::Model m;
  m.ir_version = 3;
  m.opset_imports = {{"", 9}};
  m.graph = std::make_shared<ir::Graph>();
  m.graph->inputs = {float_info("x", ir::shape_of({3})), float_info("w", ir::shape_of({3}))};
  m.graph->outputs = {float_info("y", ir::shape_of({3}))};
  m.graph->initializers["w"] = Tensor::from_vector<float>({3}, {1, 2, 3}).value();
  m.graph->initializer_order = {"w"};
  m.graph->nodes.push_back(node("Add", {"x", "w"}, {"y"}));
  return m;
}

std::vector<float> run_y(const SessionImpl& s, std::map<std::string, Value> feeds) {
  auto out = s.run(feeds);
  if (!out) {
    ADD_FAILURE() << out.status().message();
    return {};
  }
  const Tensor& y = out->at("y").tensor;
  return std::vector<float>(y.data<float>(), y.data<float>() + y.numel());
}

TEST(Compile, InitializerListedAsInputIsADefaultAFeedReplaces) {
  auto s = SessionImpl::create(add_with_default_weight(), {});
  ASSERT_TRUE(s) << s.status().message();
  Value x = Value::of(Tensor::from_vector<float>({3}, {0, 0, 0}).value());
  EXPECT_EQ(run_y(**s, {{"x", x}}), (std::vector<float>{1, 2, 3}));
  Value w = Value::of(Tensor::from_vector<float>({3}, {10, 20, 30}).value());
  EXPECT_EQ(run_y(**s, {{"x", x}, {"w", w}}), (std::vector<float>{10, 20, 30}));
  Value bad = Value::of(Tensor::from_vector<float>({2}, {1, 2}).value());
  auto r = (*s)->run({{"x", x}, {"w", bad}});
  ASSERT_FALSE(r);
  EXPECT_NE(r.status().message().find("'w'"), std::string::npos);
}

// z = Reshape(x, Shape(x)): Shape folds once the batch dim is fixed by an override.
ir::Model reshape_to_own_shape() {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports = {{"", 17}};
  m.graph = std::make_shared<ir::Graph>();
  m.graph->inputs = {float_info("x", {ir::Dim::named("batch"), ir::Dim::of(2)})};
  m.graph->outputs = {float_info("y", {ir::Dim::named("batch"), ir::Dim::of(2)})};
  m.graph->nodes.push_back(node("Shape", {"x"}, {"s"}));
  m.graph->nodes.push_back(node("Reshape", {"x", "s"}, {"y"}));
  return m;
}

TEST(Compile, DimOverridesFoldShapeAndBindFeeds) {
  SessionOptions o;
  o.dim_overrides["batch"] = 3;
  auto s = SessionImpl::create(reshape_to_own_shape(), o);
  ASSERT_TRUE(s) << s.status().message();
  EXPECT_EQ((*s)->plan().steps.size(), 1u);  // Shape became a constant
  EXPECT_EQ((*s)->inputs()[0].describe(), "float32[3,2]");
  Value x3 = Value::of(Tensor::from_vector<float>({3, 2}, {1, 2, 3, 4, 5, 6}).value());
  EXPECT_EQ(run_y(**s, {{"x", x3}}), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  Value x2 = Value::of(Tensor::from_vector<float>({2, 2}, {1, 2, 3, 4}).value());
  EXPECT_FALSE((*s)->run({{"x", x2}}));  // contradicts the override the plan was built for

  auto dynamic = SessionImpl::create(reshape_to_own_shape(), {});
  ASSERT_TRUE(dynamic);
  EXPECT_EQ((*dynamic)->plan().steps.size(), 2u);  // unknown batch: Shape runs
  EXPECT_EQ(run_y(**dynamic, {{"x", x2}}), (std::vector<float>{1, 2, 3, 4}));
}

}  // namespace
}  // namespace twinrt
