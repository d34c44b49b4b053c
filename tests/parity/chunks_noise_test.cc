// The pieces that keep localize bounded and measure the model's own noise: chunking by
// bytes, the pruned per-chunk model, and the few-ULP input perturbation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "kernels/math/half.h"
#include "parity/expected_outputs.h"
#include "parity/intermediates.h"
#include "parity/noise_floor.h"

namespace twinrt::parity {
namespace {

TEST(SplitByBytes, ChunksStayUnderTheBudgetAndKeepOrder) {
  const std::vector<std::string> names = {"a", "b", "c", "d", "e"};
  const std::map<std::string, int64_t> bytes = {{"a", 40}, {"b", 40}, {"c", 30}, {"d", 200}};  // e: unknown
  const auto chunks = split_by_bytes(names, bytes, 100);
  // a+b = 80, c would make 110: new chunk; d alone is over the budget: a chunk of its own;
  // e counts as the largest known size (200).
  const std::vector<std::vector<std::string>> expected = {{"a", "b"}, {"c"}, {"d"}, {"e"}};
  EXPECT_EQ(chunks, expected);
  EXPECT_EQ(split_by_bytes(names, bytes, 1000).size(), 1u);
  EXPECT_TRUE(split_by_bytes({}, bytes, 100).empty());
}

ir::Node node(std::string op, std::vector<std::string> in, std::vector<std::string> out) {
  ir::Node n;
  n.name = op + "_" + out[0];
  n.op_type = std::move(op);
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  return n;
}

ir::Model empty_model() {
  ir::Model model;
  model.ir_version = 8;
  model.opset_imports[""] = 17;
  model.graph = std::make_shared<ir::Graph>();
  return model;
}

TEST(ModelWithOutputs, KeepsOnlyTheNodesTheOutputsNeed) {
  // x -> Relu -> a -> Neg -> b -> Abs -> c, and x -> Sigmoid -> s (a side branch).
  ir::Model model = empty_model();
  ir::Graph& g = *model.graph;
  g.inputs = {ir::ValueInfo{"x", ir::TypeInfo::tensor(DataType::kFloat, ir::Shape{ir::Dim::of(4)}), ""}};
  g.outputs = {ir::ValueInfo{"c", ir::TypeInfo::tensor(DataType::kFloat), ""}};
  g.nodes = {node("Relu", {"x"}, {"a"}), node("Neg", {"a"}, {"b"}), node("Abs", {"b"}, {"c"}),
             node("Sigmoid", {"x"}, {"s"})};
  auto exposed = expose_intermediates(model);
  ASSERT_TRUE(exposed.is_ok()) << exposed.status().message();
  EXPECT_EQ(exposed->intermediates, (std::vector<std::string>{"a", "b", "s"}));
  EXPECT_EQ(exposed->bytes.at("b"), 16);  // 4 floats, from twinrt's shape inference
  auto part = model_with_outputs(*exposed, {"b"});
  ASSERT_TRUE(part.is_ok()) << part.status().message();
  ASSERT_EQ(part->graph->outputs.size(), 1u);
  EXPECT_EQ(part->graph->outputs[0].name, "b");
  ASSERT_EQ(part->graph->nodes.size(), 2u);  // Relu and Neg; Abs and the Sigmoid branch pruned
  EXPECT_EQ(part->graph->nodes[0].op_type, "Relu");
  EXPECT_EQ(part->graph->nodes[1].op_type, "Neg");
  EXPECT_EQ(part->graph->inputs.size(), 1u);  // inputs stay, so every engine takes the same feeds
  EXPECT_EQ(exposed->model.graph->nodes.size(), 4u);  // the exposed model is untouched
  auto bad = model_with_outputs(*exposed, {"nope"});
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("'nope'"), std::string::npos);
}

// Each chunk model is written to a file: one carrying every weight of the model (BERT: 435 MB,
// three files per chunk) filled the disk after 52 chunks. Only the weights its nodes read stay.
TEST(ModelWithOutputs, KeepsOnlyTheWeightsItsNodesRead) {
  // x -> MatMul(w1) -> a -> MatMul(w2) -> b; w2 is also a graph input, as IR < 4 lists them.
  ir::Model model = empty_model();
  ir::Graph& g = *model.graph;
  const auto f32 = [](int64_t r, int64_t c) { return ir::TypeInfo::tensor(DataType::kFloat, ir::Shape{ir::Dim::of(r), ir::Dim::of(c)}); };
  g.inputs = {ir::ValueInfo{"x", f32(1, 2), ""}, ir::ValueInfo{"w2", f32(2, 2), ""}};
  g.outputs = {ir::ValueInfo{"b", ir::TypeInfo::tensor(DataType::kFloat), ""}};
  g.initializers["w1"] = Tensor::from_vector<float>({2, 2}, {1, 2, 3, 4}).value();
  g.initializers["w2"] = Tensor::from_vector<float>({2, 2}, {5, 6, 7, 8}).value();
  g.initializer_order = {"w1", "w2"};
  g.nodes = {node("MatMul", {"x", "w1"}, {"a"}), node("MatMul", {"a", "w2"}, {"b"})};
  const auto names = [](const ir::Graph& graph) {
    std::vector<std::string> out;
    for (const auto& [name, t] : graph.initializers) out.push_back(name);
    for (const auto& i : graph.inputs) out.push_back("input " + i.name);
    return out;
  };
  auto exposed = expose_intermediates(model);
  ASSERT_TRUE(exposed.is_ok()) << exposed.status().message();
  auto first = model_with_outputs(*exposed, {"a"});
  ASSERT_TRUE(first.is_ok()) << first.status().message();
  EXPECT_EQ(names(*first->graph), (std::vector<std::string>{"w1", "input x"}));
  const std::map<std::string, Tensor> given = {{"a", Tensor::from_vector<float>({1, 2}, {1, 1}).value()}};
  auto second = model_with_outputs(*exposed, {"b"}, given);
  ASSERT_TRUE(second.is_ok()) << second.status().message();
  EXPECT_EQ(names(*second->graph), (std::vector<std::string>{"w2", "input x", "input w2", "input a"}));
  const std::set<std::string> rerun = {"b"};
  auto own = build_own_error_model(model, given, &rerun);
  ASSERT_TRUE(own.is_ok()) << own.status().message();
  EXPECT_EQ(names(*own->model.graph), (std::vector<std::string>{"w2", "input x", "input w2", "input a"}));
  EXPECT_EQ(g.initializers.size(), 2u);  // the caller's model is untouched
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

TEST(PerturbedCase, MovesFloatsByAtMostTheGivenUlpsAndNothingElse) {
  InputCase c;
  const float big = 3.4028235e38f;  // the largest float: never pushed to infinity
  c.tensors["f"] = Tensor::from_vector<float>({6}, {1.0f, -2.5f, 0.0f, big, INFINITY, NAN}).value();
  c.tensors["h"] = Tensor::from_vector<Float16>({2}, {math::to_float16(1.0f), math::to_float16(-0.5f)}).value();
  c.tensors["i"] = Tensor::from_vector<int64_t>({2}, {7, 8}).value();
  const InputCase moved = perturbed_case(c, 2, 42);
  const float* f = moved.tensors.at("f").data<float>();
  bool any_moved = false;
  for (int i = 0; i < 3; ++i) {
    const float before = c.tensors.at("f").data<float>()[i];
    // Within 2 ULPs: 2 nextafter steps either way bracket it.
    const float lo = std::nextafter(std::nextafter(before, -INFINITY), -INFINITY);
    const float hi = std::nextafter(std::nextafter(before, INFINITY), INFINITY);
    EXPECT_GE(f[i], lo) << i;
    EXPECT_LE(f[i], hi) << i;
    any_moved |= bits(f[i]) != bits(before);
  }
  EXPECT_TRUE(any_moved);
  EXPECT_TRUE(std::isfinite(f[3]));
  EXPECT_TRUE(std::isinf(f[4]));
  EXPECT_TRUE(std::isnan(f[5]));
  const Float16* h = moved.tensors.at("h").data<Float16>();
  EXPECT_LE(std::abs(static_cast<int>(h[0].bits) - static_cast<int>(math::to_float16(1.0f).bits)), 2);
  EXPECT_EQ(moved.tensors.at("i").data<int64_t>()[1], 8);
  // The original is not touched, and the same seed gives the same perturbation.
  EXPECT_EQ(c.tensors.at("f").data<float>()[0], 1.0f);
  EXPECT_EQ(bits(perturbed_case(c, 2, 42).tensors.at("f").data<float>()[1]), bits(f[1]));
}

TEST(NoiseFloor, WithinOnlyWhenThePolicyFailedAndTheGapIsNoLarger) {
  OutputComparison c;
  c.verdict.passed = false;
  c.metrics.max_abs = 0.09;
  c.metrics.cosine = 0.9991;
  judge_against_noise_floor(c, NoiseFloor{3, 2, 0.12, 0.999});
  EXPECT_TRUE(c.within_noise_floor);
  judge_against_noise_floor(c, NoiseFloor{3, 2, 0.05, 0.999});  // the model moves less
  EXPECT_FALSE(c.within_noise_floor);
  c.verdict.passed = true;  // a pass needs no excuse
  judge_against_noise_floor(c, NoiseFloor{3, 2, 0.12, 0.999});
  EXPECT_FALSE(c.within_noise_floor);
}

TEST(MaxAbsDifference, FiniteGapsNonFiniteMismatchesAndIntegers) {
  auto f = [](std::vector<float> v) { return Tensor::from_vector<float>({static_cast<int64_t>(v.size())}, v).value(); };
  EXPECT_DOUBLE_EQ(max_abs_difference(f({1, NAN, INFINITY}), f({1.5f, NAN, INFINITY})), 0.5);  // same NaN, same Inf
  EXPECT_TRUE(std::isinf(max_abs_difference(f({1, 2}), f({1, NAN}))));
  EXPECT_TRUE(std::isinf(max_abs_difference(f({1, 2}), f({1, 2, 3}))));  // shapes differ
  auto i = [](std::vector<int64_t> v) { return Tensor::from_vector<int64_t>({static_cast<int64_t>(v.size())}, v).value(); };
  EXPECT_DOUBLE_EQ(max_abs_difference(i({1, 5, 7}), i({2, 5, 9})), 2 + 2);  // largest gap 2, two elements differ
}

}  // namespace
}  // namespace twinrt::parity
