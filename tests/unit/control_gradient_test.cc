// The Gradient op's reverse-mode differentiation: the planner and backward pass on
// their own, and the op in a session.
#include <gtest/gtest.h>

#include "control_model_builder.h"
#include "ops/training/autodiff.h"

namespace twinrt {
namespace {

using namespace control_testing;

// c = a + b; d = c * a  (the graph of ONNX's test_gradient_of_add_and_mul)
ir::Graph add_mul_graph() {
  return graph({node("Add", {"a", "b"}, {"c"}), node("Mul", {"c", "a"}, {"d"}),
                node("Gradient", {"a", "b"}, {"dd_da", "dd_db"},
                     {strings_attr("xs", {"a", "b"}), string_attr("y", "d")}, "ai.onnx.preview.training")},
               {tensor_info("a", DataType::kFloat), tensor_info("b", DataType::kFloat)}, {any_info("d")});
}

TEST(ControlGradient, BackpropagatesThroughBroadcasts) {
  // a [2,1], b [3]: c = a + b is [2,3], d = c * a. dd/da_i = sum_j (c_ij + a_i) =
  // sum_j (2 a_i + b_j) and dd/db_j = sum_i a_i.
  ir::Graph g = add_mul_graph();
  auto plan = plan_gradient(g, {"a", "b"}, {}, "d", {});
  ASSERT_TRUE(plan.is_ok()) << plan.status().message();
  ASSERT_EQ(plan->forward->nodes.size(), 2u);
  const std::vector<float> a = {1, 2}, b = {10, 20, 30};
  std::vector<float> c, d;
  for (float ai : a)
    for (float bj : b) {
      c.push_back(ai + bj);
      d.push_back((ai + bj) * ai);
    }
  std::map<std::string, Value> known = {{"a", val<float>({2, 1}, a)}, {"b", val<float>({3}, b)},
                                        {"c", val<float>({2, 3}, c)}, {"d", val<float>({2, 3}, d)}};
  std::vector<Value> forward;
  for (const auto& name : plan->forward_outputs) forward.push_back(known.at(name));
  auto grads = backpropagate(*plan, forward);
  ASSERT_TRUE(grads.is_ok()) << grads.status().message();
  EXPECT_EQ(values_of<double>((*grads)[0]), (std::vector<double>{3 * 2 * 1 + 60, 3 * 2 * 2 + 60}));
  EXPECT_EQ(values_of<double>((*grads)[1]), (std::vector<double>{3, 3, 3}));
}

TEST(ControlGradient, RefusesOpsWithoutARule) {
  ir::Graph g = graph({node("Exp", {"a"}, {"y"})}, {tensor_info("a", DataType::kFloat)}, {any_info("y")});
  auto plan = plan_gradient(g, {"a"}, {}, "y", {});
  ASSERT_FALSE(plan.is_ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kNotImplemented);
  EXPECT_NE(plan.status().message().find("(Exp)"), std::string::npos) << plan.status().message();
}

TEST(ControlGradient, OpDifferentiatesItsGraphInASession) {
  ir::Graph g = add_mul_graph();
  g.outputs = {any_info("d"), any_info("dd_da"), any_info("dd_db")};
  // At a = 2, b = 3: d = 10, dd/da = 2a + b = 7, dd/db = a = 2.
  for (Mode mode : {Mode::kDefault, Mode::kReference}) {
    auto out = run_graph(g, 12, {{"a", val<float>({}, {2})}, {"b", val<float>({}, {3})}}, mode);
    ASSERT_TRUE(out.is_ok()) << out.status().message();
    EXPECT_EQ(values_of<float>(out->at("d").tensor), (std::vector<float>{10}));
    EXPECT_EQ(values_of<float>(out->at("dd_da").tensor), (std::vector<float>{7}));
    EXPECT_EQ(values_of<float>(out->at("dd_db").tensor), (std::vector<float>{2}));
  }
}

}  // namespace
}  // namespace twinrt
