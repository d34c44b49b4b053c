// passes/flush_denormal_weights.cc: subnormal float32 weights of the multiplying ops become
// signed zeros in default mode with all passes, and stay as they are in every other mode,
// level, and wherever another reader or a feed could see the constant.
#include <gtest/gtest.h>

#include <cmath>

#include "control_model_builder.h"
#include "passes/passes.h"
#include "passes_test_util.h"

namespace twinrt {
namespace {

using namespace control_testing;

// 2^-130: subnormal in float32.
const float kSubnormal = std::ldexp(1.0f, -130);

// y = x [1, 2] MatMul w [2, 1], w = [2^-130, -2^-130 ... ] with x = [2^100, 1]: the subnormal
// weight times the huge input is 2^-30, a product the flush visibly drops.
ir::Model matmul_model(bool weight_as_constant_node) {
  const Tensor w = make<float>({2, 1}, {kSubnormal, -kSubnormal});
  std::vector<ir::Node> nodes;
  if (weight_as_constant_node) {
    ir::Attribute value;
    value.name = "value";
    value.type = ir::Attribute::Type::kTensor;
    value.t = w;
    nodes.push_back(node("Constant", {}, {"w"}, {value}));
  }
  nodes.push_back(node("MatMul", {"x", "w"}, {"y"}));
  ir::Graph g = graph(std::move(nodes), {tensor_info("x", DataType::kFloat)}, {tensor_info("y", DataType::kFloat)});
  if (!weight_as_constant_node) add_initializer(g, "w", w);
  return model_of(std::move(g), 13);
}

const Tensor kX = make<float>({1, 2}, {std::ldexp(1.0f, 100), 1.0f});

float run_y(ir::Model m, Mode mode, OptimizationLevel level) {
  const Tensor y = run_model(std::move(m), mode, level, {{"x", kX}});
  return y.numel() == 1 ? y.data<float>()[0] : NAN;
}

int flushes(ir::Model m, Mode mode, OptimizationLevel level) {
  for (const passes::PassRun& run : passes::optimize(m, level, mode))
    if (std::string(run.pass->name) == "flush_denormal_weights") return run.rewrites;
  return -1;  // did not run
}

TEST(PassesDenormalWeights, FlushesInDefaultModeOnly) {
  for (bool constant_node : {false, true}) {
    EXPECT_EQ(flushes(matmul_model(constant_node), Mode::kDefault, OptimizationLevel::kAll), 1);
    EXPECT_EQ(run_y(matmul_model(constant_node), Mode::kDefault, OptimizationLevel::kAll), 0.0f);
    // Everywhere else the product of 2^100 and 2^-130 stays.
    EXPECT_EQ(run_y(matmul_model(constant_node), Mode::kDefault, OptimizationLevel::kBasic), std::ldexp(1.0f, -30));
    for (Mode mode : {Mode::kExact, Mode::kReference}) {
      EXPECT_EQ(flushes(matmul_model(constant_node), mode, OptimizationLevel::kAll), -1);
      EXPECT_EQ(run_y(matmul_model(constant_node), mode, OptimizationLevel::kAll), std::ldexp(1.0f, -30));
    }
  }
}

TEST(PassesDenormalWeights, KeepsTheSignAndTheNormalValues) {
  ir::Model m = matmul_model(false);
  m.graph->initializers["w"] = make<float>({2, 1}, {-kSubnormal, 0.5f});
  passes::optimize(m, OptimizationLevel::kAll, Mode::kDefault);
  const float* w = m.graph->initializers.at("w").data<float>();
  EXPECT_EQ(w[0], 0.0f);
  EXPECT_TRUE(std::signbit(w[0]));
  EXPECT_EQ(w[1], 0.5f);
}

TEST(PassesDenormalWeights, LeavesConstantsOthersSee) {
  {  // a feed may replace the weights
    ir::Model m = matmul_model(false);
    m.graph->inputs.push_back(tensor_info("w", DataType::kFloat));
    EXPECT_EQ(flushes(std::move(m), Mode::kDefault, OptimizationLevel::kAll), 0);
  }
  {  // the weights are also a graph output
    ir::Model m = matmul_model(false);
    m.graph->outputs.push_back(tensor_info("w", DataType::kFloat));
    EXPECT_EQ(flushes(std::move(m), Mode::kDefault, OptimizationLevel::kAll), 0);
  }
  {  // an op that does not only multiply reads them too (Div by a subnormal is not Div by 0)
    ir::Model m = matmul_model(false);
    m.graph->nodes.push_back(node("Div", {"x", "w"}, {"q"}));
    m.graph->outputs.push_back(tensor_info("q", DataType::kFloat));
    EXPECT_EQ(flushes(std::move(m), Mode::kDefault, OptimizationLevel::kAll), 0);
  }
}

}  // namespace
}  // namespace twinrt
