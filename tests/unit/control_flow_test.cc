// If, Loop and Scan through real sessions: branch choice and outer-scope reads, loop
// termination rules, empty loops, Scan axes/directions (opset 9+) and batches with
// sequence_lens (opset 8). Expected values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include "control_model_builder.h"

namespace twinrt {
namespace {

using namespace control_testing;

const DataType kF = DataType::kFloat;
const DataType kI64 = DataType::kInt64;
const DataType kBool = DataType::kBool;

// Body (i, cond, v) -> (cond, v, scan = v) with v float[2].
ir::Graph pass_through_body() {
  return graph({node("Identity", {"cond_in"}, {"cond_out"}), node("Identity", {"v_in"}, {"v_out"}),
                node("Identity", {"v_in"}, {"scan"})},
               {tensor_info("i", kI64, {{}}), tensor_info("cond_in", kBool, {{}}), tensor_info("v_in", kF, {{2}})},
               {tensor_info("cond_out", kBool, {{}}), tensor_info("v_out", kF, {{2}}), tensor_info("scan", kF, {{2}})},
               "body");
}

ir::Graph loop_graph(std::vector<std::string> loop_inputs, std::vector<ir::ValueInfo> graph_inputs, ir::Graph body) {
  return graph({node("Loop", std::move(loop_inputs), {"v_final", "scans"}, {graph_attr("body", std::move(body))})},
               std::move(graph_inputs), {any_info("v_final"), any_info("scans")});
}

TEST(ControlLoop, ZeroIterationsGiveEmptyScanOutputShapedLikeTheBody) {
  auto g = loop_graph({"M", "", "v0"}, {tensor_info("M", kI64, {{}}), tensor_info("v0", kF, {{2}})}, pass_through_body());
  auto out = run_graph(g, 13, {{"M", val<int64_t>({}, {0})}, {"v0", val<float>({2}, {1, 2})}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values_of<float>(out->at("v_final").tensor), (std::vector<float>{1, 2}));
  EXPECT_EQ(out->at("scans").tensor.shape(), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(out->at("scans").tensor.dtype(), kF);
}

TEST(ControlLoop, TripCountBoundsIterationsAndScanOutputsStack) {
  auto g = loop_graph({"M", "", "v0"}, {tensor_info("M", kI64, {{}}), tensor_info("v0", kF, {{2}})}, pass_through_body());
  auto out = run_graph(g, 13, {{"M", val<int64_t>({}, {3})}, {"v0", val<float>({2}, {1, 2})}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at("scans").tensor.shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(values_of<float>(out->at("scans").tensor), (std::vector<float>{1, 2, 1, 2, 1, 2}));
}

TEST(ControlLoop, FalseInitialConditionRunsNothing) {
  auto g = loop_graph({"", "cond", "v0"}, {tensor_info("cond", kBool, {{}}), tensor_info("v0", kF, {{2}})},
                      pass_through_body());
  auto out = run_graph(g, 13, {{"cond", val<bool>({}, {false})}, {"v0", val<float>({2}, {5, 6})}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values_of<float>(out->at("v_final").tensor), (std::vector<float>{5, 6}));
  EXPECT_EQ(out->at("scans").tensor.shape(), (std::vector<int64_t>{0, 2}));
}

TEST(ControlLoop, BodyConditionEndsAHugeTripCountAndReadsOuterScope) {
  // cond_out = i < limit (limit from the enclosing graph): iterations 0..3 run, the last
  // one turning the condition false; each emits i.
  auto body = graph({node("Less", {"i", "limit"}, {"cond_out"}), node("Identity", {"v_in"}, {"v_out"}),
                     node("Identity", {"i"}, {"scan"})},
                    {tensor_info("i", kI64, {{}}), tensor_info("cond_in", kBool, {{}}), tensor_info("v_in", kF, {{2}})},
                    {tensor_info("cond_out", kBool, {{}}), any_info("v_out"), tensor_info("scan", kI64, {{}})}, "body");
  auto g = loop_graph({"M", "", "v0"},
                      {tensor_info("M", kI64, {{}}), tensor_info("limit", kI64, {{}}), tensor_info("v0", kF, {{2}})},
                      std::move(body));
  auto out = run_graph(g, 13, {{"M", val<int64_t>({}, {INT64_MAX})},
                               {"limit", val<int64_t>({}, {3})},
                               {"v0", val<float>({2}, {0, 0})}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values_of<int64_t>(out->at("scans").tensor), (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST(ControlLoop, BodyWithWrongInputCountIsRejectedAtLoad) {
  auto body = pass_through_body();
  body.inputs.push_back(tensor_info("extra", kF, {{1}}));
  auto g = loop_graph({"M", "", "v0"}, {tensor_info("M", kI64, {{}}), tensor_info("v0", kF, {{2}})}, std::move(body));
  auto out = run_graph(g, 13, {});
  ASSERT_FALSE(out.is_ok());
  EXPECT_NE(out.status().message().find("body takes"), std::string::npos) << out.status().message();
}

ir::Graph if_graph() {
  auto then_branch = graph({node("Identity", {"x"}, {"then_y"})}, {}, {any_info("then_y")}, "then");
  auto else_branch = graph({node("Identity", {"z"}, {"else_y"})}, {}, {any_info("else_y")}, "else");
  return graph({node("If", {"cond"}, {"y"},
                     {graph_attr("then_branch", std::move(then_branch)), graph_attr("else_branch", std::move(else_branch))})},
               {any_info("cond"), tensor_info("x", kF, {{1}}), tensor_info("z", kF, {{1}})}, {any_info("y")});
}

TEST(ControlIf, RunsTheChosenBranchOnOuterValues) {
  for (bool cond : {true, false}) {
    auto out = run_graph(if_graph(), 16, {{"cond", val<bool>({1}, {cond})}, {"x", val<float>({1}, {1})},
                                          {"z", val<float>({1}, {2})}});
    ASSERT_TRUE(out.is_ok()) << out.status().message();
    EXPECT_EQ(values_of<float>(out->at("y").tensor), (std::vector<float>{cond ? 1.0f : 2.0f}));
  }
}

TEST(ControlIf, ConditionMustHaveOneBoolElement) {
  auto two = run_graph(if_graph(), 16, {{"cond", val<bool>({2}, {true, false})}, {"x", val<float>({1}, {1})},
                                        {"z", val<float>({1}, {2})}});
  ASSERT_FALSE(two.is_ok());
  EXPECT_NE(two.status().message().find("exactly one element"), std::string::npos) << two.status().message();
  auto not_bool = run_graph(if_graph(), 16, {{"cond", val<float>({1}, {1})}, {"x", val<float>({1}, {1})},
                                             {"z", val<float>({1}, {2})}});
  ASSERT_FALSE(not_bool.is_ok());
  EXPECT_NE(not_bool.status().message().find("must be bool"), std::string::npos) << not_bool.status().message();
}

// Body (s, x_t) -> (s + x_t, x_t, x_t).
ir::Graph sum_body(std::vector<int64_t> state_dims) {
  return graph({node("Add", {"s_in", "x_t"}, {"s_out"}), node("Identity", {"x_t"}, {"y1"}),
                node("Identity", {"x_t"}, {"y2"})},
               {tensor_info("s_in", kF, state_dims), tensor_info("x_t", kF, state_dims)},
               {any_info("s_out"), any_info("y1"), any_info("y2")}, "body");
}

TEST(ControlScan, InputAndOutputAxesAndDirections) {
  // X = [[1,2,3],[4,5,6]] scanned over columns (axis -1) in reverse: x_t = [3,6], [2,5],
  // [1,4]. y1 stacks on axis 1 in reverse (giving X back), y2 on axis 0 in order.
  auto g = graph({node("Scan", {"s0", "X"}, {"s", "y1", "y2"},
                       {graph_attr("body", sum_body({2})), int_attr("num_scan_inputs", 1),
                        ints_attr("scan_input_axes", {-1}), ints_attr("scan_input_directions", {1}),
                        ints_attr("scan_output_axes", {1, 0}), ints_attr("scan_output_directions", {1, 0})})},
                 {tensor_info("s0", kF, {{2}}), tensor_info("X", kF, {{2, 3}})},
                 {any_info("s"), any_info("y1"), any_info("y2")});
  auto out = run_graph(g, 11, {{"s0", val<float>({2}, {0, 0})}, {"X", val<float>({2, 3}, {1, 2, 3, 4, 5, 6})}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values_of<float>(out->at("s").tensor), (std::vector<float>{6, 15}));
  EXPECT_EQ(out->at("y1").tensor.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values_of<float>(out->at("y1").tensor), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(out->at("y2").tensor.shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(values_of<float>(out->at("y2").tensor), (std::vector<float>{3, 6, 2, 5, 1, 4}));
}

TEST(ControlScan, ScanInputsMustAgreeOnLength) {
  auto body = graph({node("Add", {"a", "b"}, {"s_out"})},
                    {tensor_info("s_in", kF, {{1}}), tensor_info("a", kF, {{1}}), tensor_info("b", kF, {{1}})},
                    {any_info("s_out")}, "body");
  auto g = graph({node("Scan", {"s0", "A", "B"}, {"s"}, {graph_attr("body", std::move(body)), int_attr("num_scan_inputs", 2)})},
                 {tensor_info("s0", kF, {{1}}), tensor_info("A", kF, {{2, 1}}), tensor_info("B", kF, {{3, 1}})},
                 {any_info("s")});
  auto out = run_graph(g, 11, {{"s0", val<float>({1}, {0})}, {"A", val<float>({2, 1}, {1, 2})},
                               {"B", val<float>({3, 1}, {1, 2, 3})}});
  ASSERT_FALSE(out.is_ok());
  EXPECT_NE(out.status().message().find("scan input 1 has 3 elements"), std::string::npos) << out.status().message();
}

ir::Graph scan8_graph(int64_t direction) {
  return graph({node("Scan", {"lens", "s0", "X"}, {"s", "y1", "y2"},
                     {graph_attr("body", sum_body({1})), int_attr("num_scan_inputs", 1),
                      ints_attr("directions", {direction})})},
               {tensor_info("lens", DataType::kInt32, {{2}}), tensor_info("s0", kF, {{2, 1}}),
                tensor_info("X", kF, {{2, 3, 1}})},
               {any_info("s"), any_info("y1"), any_info("y2")});
}

TEST(ControlScan, Opset8BatchesWithSequenceLengthsPadWithZeros) {
  // Batch 0 scans [1,2,3] fully, batch 1 only its first element 10 (length 1).
  const std::map<std::string, Value> feeds = {{"lens", val<int32_t>({2}, {3, 1})},
                                              {"s0", val<float>({2, 1}, {0, 100})},
                                              {"X", val<float>({2, 3, 1}, {1, 2, 3, 10, 20, 30})}};
  auto forward = run_graph(scan8_graph(0), 8, feeds);
  ASSERT_TRUE(forward.is_ok()) << forward.status().message();
  EXPECT_EQ(values_of<float>(forward->at("s").tensor), (std::vector<float>{6, 110}));
  EXPECT_EQ(forward->at("y1").tensor.shape(), (std::vector<int64_t>{2, 3, 1}));
  EXPECT_EQ(values_of<float>(forward->at("y1").tensor), (std::vector<float>{1, 2, 3, 10, 0, 0}));
  // Reversed, each batch entry reads its own valid elements backwards: 3, 2, 1 and 10.
  auto reverse = run_graph(scan8_graph(1), 8, feeds);
  ASSERT_TRUE(reverse.is_ok()) << reverse.status().message();
  EXPECT_EQ(values_of<float>(reverse->at("s").tensor), (std::vector<float>{6, 110}));
  EXPECT_EQ(values_of<float>(reverse->at("y2").tensor), (std::vector<float>{3, 2, 1, 10, 0, 0}));
}

TEST(ControlScan, Opset8RejectsSequenceLengthBeyondTheInput) {
  auto out = run_graph(scan8_graph(0), 8, {{"lens", val<int32_t>({2}, {4, 1})},
                                           {"s0", val<float>({2, 1}, {0, 0})},
                                           {"X", val<float>({2, 3, 1}, {1, 2, 3, 4, 5, 6})}});
  ASSERT_FALSE(out.is_ok());
  EXPECT_NE(out.status().message().find("sequence_lens[0] = 4"), std::string::npos) << out.status().message();
}

}  // namespace
}  // namespace twinrt
