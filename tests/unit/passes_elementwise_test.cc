// passes/fuse_elementwise.cc merges chains of float elementwise nodes into one
// FusedElementwise node. The merged node must give the separate nodes' bits in every mode
// and at any thread count, with operands that broadcast, and must leave alone what it
// cannot merge (values read elsewhere, integer chains).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "control_model_builder.h"
#include "passes_test_util.h"
#include "passes/passes.h"

namespace twinrt {
namespace {

using namespace control_testing;

// An exported HardSwish between two affine steps, as PaddleOCR's models have after each
// Conv: y = a2 * hardswish(a * x + b) + b2, with b per channel ([C, 1, 1]).
ir::Model affine_hardswish(int64_t channels) {
  ir::Graph g = graph({node("Mul", {"a", "x"}, {"m1"}), node("Add", {"m1", "b"}, {"s1"}),
                       node("Add", {"s1", "three"}, {"s2"}), node("Clip", {"s2", "zero", "six"}, {"c"}),
                       node("Mul", {"s1", "c"}, {"m2"}), node("Div", {"m2", "six"}, {"h"}),
                       node("Mul", {"a2", "h"}, {"m3"}), node("Add", {"m3", "b2"}, {"y"})},
                      {tensor_info("x", DataType::kFloat)}, {tensor_info("y", DataType::kFloat)});
  for (size_t i = 0; i < g.nodes.size(); ++i) g.nodes[i].name = "n" + std::to_string(i);
  add_initializer(g, "a", make<float>({}, {0.943f}));
  add_initializer(g, "b", random_floats({channels, 1, 1}, 9, -1.0f, 1.0f));
  add_initializer(g, "three", make<float>({}, {3.0f}));
  add_initializer(g, "zero", make<float>({}, {0.0f}));
  add_initializer(g, "six", make<float>({}, {6.0f}));
  add_initializer(g, "a2", make<float>({}, {0.476f}));
  add_initializer(g, "b2", make<float>({}, {-0.0076f}));
  return model_of(std::move(g));
}


TEST(PassesElementwise, AChainBecomesOneNodeNamingEveryNode) {
  ir::Model m = affine_hardswish(5);
  passes::optimize(m, OptimizationLevel::kBasic, Mode::kExact);
  ASSERT_EQ(m.graph->nodes.size(), 1u);
  const ir::Node& n = m.graph->nodes[0];
  EXPECT_EQ(n.op_type, "FusedElementwise");
  EXPECT_EQ(n.elementwise_steps.size(), 8u);
  EXPECT_EQ(n.outputs, std::vector<std::string>{"y"});
  EXPECT_EQ(n.describe(), "node 'n0' + 'n1' + 'n2' + 'n3' + 'n4' + 'n5' + 'n6' + 'n7' (ai.twinrt:FusedElementwise, fused)");
}

// Shapes below, at and across the kernel's 256-element blocks, several rows (the
// per-channel operand), and enough elements to split across threads.
TEST(PassesElementwise, FusedChainGivesTheSeparateNodesBits) {
  const std::vector<std::vector<int64_t>> shapes = {{1, 5, 1, 1}, {1, 5, 16, 16}, {2, 5, 7, 11}, {1, 5, 97, 131}};
  uint32_t seed = 20;
  for (const auto& shape : shapes) {
    const Tensor x = random_floats(shape, seed++);
    for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference})
      for (int threads : {1, 2}) {
        const Tensor fused = run_model(affine_hardswish(5), mode, OptimizationLevel::kAll, {{"x", x}}, threads);
        const Tensor separate = run_model(affine_hardswish(5), mode, OptimizationLevel::kNone, {{"x", x}});
        EXPECT_TRUE(same_bits(fused, separate)) << mode_name(mode) << " " << shape_to_string(shape) << " threads " << threads;
      }
  }
}

// Every kind of step the kernel knows, on values that include NaN, infinities and zeros.
TEST(PassesElementwise, EveryStepKindKeepsItsBits) {
  ir::Graph g = graph({node("Sub", {"x", "z"}, {"d"}), node("Sigmoid", {"d"}, {"s"}), node("Tanh", {"x"}, {"t"}),
                       node("Add", {"s", "t"}, {"u"}), node("Exp", {"u"}, {"e"}), node("Erf", {"d"}, {"f"}),
                       node("Mul", {"e", "f"}, {"p"}), node("Relu", {"p"}, {"r"}), node("Sqrt", {"r"}, {"q"}),
                       node("HardSigmoid", {"d"}, {"hs"}, {float_attr("alpha", 0.3f), float_attr("beta", 0.4f)}),
                       node("LeakyRelu", {"hs"}, {"lr"}, {float_attr("alpha", 0.2f)}), node("HardSwish", {"z"}, {"w"}),
                       node("Add", {"lr", "w"}, {"v"}), node("Clip", {"v"}, {"cl"}), node("Div", {"q", "cl"}, {"y"})},
                      {tensor_info("x", DataType::kFloat), tensor_info("z", DataType::kFloat)},
                      {tensor_info("y", DataType::kFloat)});
  Tensor x = random_floats({3, 1, 300}, 31, -4.0f, 4.0f);
  const Tensor z = random_floats({4, 1}, 32, -4.0f, 4.0f);  // broadcasts against x: [3, 4, 300]
  float* xv = x.data<float>();
  xv[0] = NAN;
  xv[1] = INFINITY;
  xv[2] = -INFINITY;
  xv[3] = 0.0f;
  xv[4] = -0.0f;
  ir::Model fusable = model_of(g, 18);
  passes::optimize(fusable, OptimizationLevel::kBasic, Mode::kDefault);
  ASSERT_EQ(fusable.graph->nodes.size(), 1u);
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference}) {
    const Tensor fused = run_model(model_of(g, 18), mode, OptimizationLevel::kAll, {{"x", x}, {"z", z}}, 2);
    const Tensor separate = run_model(model_of(g, 18), mode, OptimizationLevel::kNone, {{"x", x}, {"z", z}});
    EXPECT_TRUE(same_bits(fused, separate)) << mode_name(mode);
  }
}

// A squeeze-and-excitation scale, x * sigmoid(s) with s one value per channel, on planes
// short enough for several rows per block (run_rows: the sigmoid once on all the rows'
// values, then the products), a batch of rows that does not divide the channels, and
// specials in both operands.
TEST(PassesElementwise, ShortRowsGiveTheSeparateNodesBits) {
  ir::Graph g = graph({node("Sigmoid", {"s"}, {"g"}), node("Mul", {"x", "g"}, {"y"})},
                      {tensor_info("x", DataType::kFloat), tensor_info("s", DataType::kFloat)},
                      {tensor_info("y", DataType::kFloat)});
  for (int64_t plane : {1, 7, 30}) {
    Tensor x = random_floats({2, 67, plane, plane}, 40, -6.0f, 6.0f);
    Tensor s = random_floats({1, 67, 1, 1}, 41, -12.0f, 12.0f);
    for (Tensor* t : {&x, &s}) {
      float* v = t->data<float>();
      v[0] = NAN;
      v[1] = INFINITY;
      v[2] = -INFINITY;
      v[3] = -0.0f;
    }
    for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference})
      for (int threads : {1, 2}) {
        const Tensor fused = run_model(model_of(g), mode, OptimizationLevel::kAll, {{"x", x}, {"s", s}}, threads);
        const Tensor separate = run_model(model_of(g), mode, OptimizationLevel::kNone, {{"x", x}, {"s", s}});
        EXPECT_TRUE(same_bits(fused, separate)) << mode_name(mode) << " plane " << plane << " threads " << threads;
      }
  }
}

// Conv (3x3 on the tile kernels, depthwise, 1x1) followed by the affine HardSwish chain:
// the chain folds into the Conv and runs on each finished tile or plane.
ir::Model conv_then_chain(int64_t in_channels, int64_t group, int64_t kernel, bool with_bias) {
  ir::Model m = affine_hardswish(8);
  ir::Graph& g = *m.graph;
  g.nodes[0].inputs[1] = "c0";  // the chain now reads the Conv's output
  std::vector<std::string> conv_inputs = {"x", "w"};
  if (with_bias) conv_inputs.push_back("bias");
  const int64_t pad = kernel / 2;
  ir::Node conv = node("Conv", conv_inputs, {"c0"},
                       {ints_attr("pads", {pad, pad, pad, pad}), int_attr("group", group)});
  conv.name = "conv";
  g.nodes.insert(g.nodes.begin(), conv);
  add_initializer(g, "w", random_floats({8, in_channels / group, kernel, kernel}, 41, -0.5f, 0.5f));
  if (with_bias) add_initializer(g, "bias", random_floats({8}, 42, -0.5f, 0.5f));
  return m;
}

TEST(PassesElementwise, ChainsFoldIntoTheConvBeforeThem) {
  ir::Model m = conv_then_chain(4, 1, 3, true);
  passes::optimize(m, OptimizationLevel::kBasic, Mode::kExact);
  ASSERT_EQ(m.graph->nodes.size(), 1u);
  const ir::Node& n = m.graph->nodes[0];
  EXPECT_EQ(n.op_type, "Conv");
  EXPECT_EQ(n.elementwise_steps.size(), 8u);
  EXPECT_EQ(n.outputs, std::vector<std::string>{"y"});
  EXPECT_EQ(n.describe(), "node 'conv' + 'n0' + 'n1' + 'n2' + 'n3' + 'n4' + 'n5' + 'n6' + 'n7' (Conv, fused)");
}

TEST(PassesElementwise, FoldedChainGivesTheSeparateNodesBits) {
  struct Case {
    int64_t in_channels, group, kernel;
    bool bias;
  };
  const Case cases[] = {{4, 1, 3, true}, {8, 8, 3, true}, {8, 8, 5, false}, {6, 1, 1, false}, {8, 2, 3, true}};
  uint32_t seed = 60;
  for (const Case& c : cases)
    for (const std::vector<int64_t>& spatial : {std::vector<int64_t>{5, 7}, std::vector<int64_t>{33, 41}}) {
      const Tensor x = random_floats({2, c.in_channels, spatial[0], spatial[1]}, seed++);
      for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference})
        for (int threads : {1, 2}) {
          const Tensor fused = run_model(conv_then_chain(c.in_channels, c.group, c.kernel, c.bias), mode,
                                         OptimizationLevel::kAll, {{"x", x}}, threads);
          const Tensor separate = run_model(conv_then_chain(c.in_channels, c.group, c.kernel, c.bias), mode,
                                            OptimizationLevel::kNone, {{"x", x}});
          EXPECT_TRUE(same_bits(fused, separate))
              << mode_name(mode) << " threads " << threads << " in " << c.in_channels << " group " << c.group
              << " kernel " << c.kernel << " spatial " << spatial[0] << "x" << spatial[1];
        }
    }
}

TEST(PassesElementwise, ValuesReadElsewhereStayOutputsOfTheirGroup) {
  ir::Model m = affine_hardswish(5);
  m.graph->outputs.push_back(tensor_info("c", DataType::kFloat));  // the Clip's output is a model output too
  passes::optimize(m, OptimizationLevel::kAll, Mode::kDefault);
  // The Clip's value must still be computed where the model can see it.
  bool clip_output_made = false;
  for (const ir::Node& n : m.graph->nodes) clip_output_made |= n.outputs[0] == "c";
  EXPECT_TRUE(clip_output_made);
  const Tensor x = random_floats({1, 5, 9, 9}, 40);
  EXPECT_TRUE(same_bits(run_model(affine_hardswish(5), Mode::kDefault, OptimizationLevel::kAll, {{"x", x}}),
                        run_model(affine_hardswish(5), Mode::kDefault, OptimizationLevel::kNone, {{"x", x}})));
}

// x with NaN, both infinities and -0 as its first elements.
Tensor with_specials(Tensor x) {
  float* v = x.data<float>();
  v[0] = NAN;
  v[1] = INFINITY;
  v[2] = -INFINITY;
  v[3] = -0.0f;
  return x;
}

// g run with its groups fused, at 1 and 2 threads, gives the bits of its nodes run one by one.
void expect_fused_gives_the_separate_bits(const ir::Graph& g, const Tensor& x, std::initializer_list<Mode> modes,
                                          const std::string& what) {
  for (Mode mode : modes)
    for (int threads : {1, 2}) {
      const Tensor fused = run_model(model_of(g), mode, OptimizationLevel::kAll, {{"x", x}}, threads);
      const Tensor separate = run_model(model_of(g), mode, OptimizationLevel::kNone, {{"x", x}});
      EXPECT_TRUE(same_bits(fused, separate)) << mode_name(mode) << " threads " << threads << ", " << what;
    }
}

// The program runs Mul then Add, and Add, Clip, Mul, Div, in one pass when their other
// operands are one value per block (ElementwiseProgram::fuse_runs), and step by step when
// they vary along the block: both give the separate nodes' bits, with the constant on either
// side of the commutative ops, and with infinities and NaN among the inputs.
TEST(PassesElementwise, RunsOfStepsGiveTheSeparateNodesBitsWithAnyOperands) {
  for (bool varying : {false, true}) {
    ir::Graph g = graph({node("Mul", {"x", "a"}, {"m1"}), node("Add", {"b", "m1"}, {"s1"}),
                         node("Add", {"three", "s1"}, {"s2"}), node("Clip", {"s2", "zero", "six"}, {"c"}),
                         node("Mul", {"c", "s1"}, {"m2"}), node("Div", {"m2", "six"}, {"y"})},
                        {tensor_info("x", DataType::kFloat)}, {tensor_info("y", DataType::kFloat)});
    add_initializer(g, "a", varying ? random_floats({37}, 3, -2.0f, 2.0f) : make<float>({}, {1.7f}));
    add_initializer(g, "b", random_floats({3, 1, 1}, 4, -1.0f, 1.0f));
    add_initializer(g, "three", varying ? random_floats({37}, 5, 2.0f, 4.0f) : make<float>({}, {3.0f}));
    add_initializer(g, "zero", make<float>({}, {0.0f}));
    add_initializer(g, "six", make<float>({}, {6.0f}));
    expect_fused_gives_the_separate_bits(g, with_specials(random_floats({2, 3, 5, 37}, 6, -8.0f, 8.0f)),
                                         {Mode::kDefault, Mode::kExact},
                                         varying ? "varying operands" : "constant operands");
  }
}

// SiLU, x * Sigmoid(x) with the product on either side, runs in one pass in the fast modes
// (ElementwiseProgram::fuse_runs): the separate nodes' bits with infinities, NaN and -0
// among the inputs, and on a broadcast input (one value per block: step by step).
TEST(PassesElementwise, SiluInOnePassGivesTheSeparateNodesBits) {
  for (bool x_first : {false, true}) {
    ir::Graph g = graph({node("Sigmoid", {"x"}, {"s"}), node("Mul", x_first ? std::vector<std::string>{"x", "s"}
                                                                         : std::vector<std::string>{"s", "x"}, {"m"}),
                         node("Sigmoid", {"k"}, {"ks"}), node("Mul", {"k", "ks"}, {"km"}), node("Add", {"m", "km"}, {"y"})},
                        {tensor_info("x", DataType::kFloat)}, {tensor_info("y", DataType::kFloat)});
    add_initializer(g, "k", make<float>({}, {-1.25f}));
    Tensor x = with_specials(random_floats({2, 3, 5, 37}, 7, -20.0f, 20.0f));
    x.data<float>()[4] = -100.0f;
    expect_fused_gives_the_separate_bits(g, x, {Mode::kDefault, Mode::kExact, Mode::kReference},
                                         x_first ? "x * s" : "s * x");
  }
}

TEST(PassesElementwise, IntegerChainsAreLeftAlone) {
  ir::Graph g = graph({node("Add", {"x", "one"}, {"s"}), node("Mul", {"s", "one"}, {"y"})},
                      {tensor_info("x", DataType::kInt64)}, {tensor_info("y", DataType::kInt64)});
  add_initializer(g, "one", make<int64_t>({}, {1}));
  ir::Model m = model_of(std::move(g));
  passes::optimize(m, OptimizationLevel::kAll, Mode::kDefault);
  EXPECT_EQ(m.graph->nodes.size(), 2u);
}

// A graph that declares no intermediate types (as PyTorch exports): float32 flows from the
// input through Conv, Reshape and Concat, so a SiLU (Sigmoid, then Mul by its input) after a
// Conv folds into it, and one after a Reshape becomes a group; an int64 input's Reshape
// carries int64, and its Sigmoid-free chain stays apart.
TEST(PassesElementwise, TypesCarryThroughUndeclaredValues) {
  ir::Graph g = graph({node("Conv", {"x", "w"}, {"c"}), node("Sigmoid", {"c"}, {"s"}), node("Mul", {"c", "s"}, {"silu"}),
                       node("Reshape", {"silu", "shape"}, {"r"}), node("Sigmoid", {"r"}, {"rs"}),
                       node("Mul", {"r", "rs"}, {"y"}), node("Reshape", {"i", "shape"}, {"ir"}),
                       node("Add", {"ir", "one"}, {"ia"}), node("Mul", {"ia", "one"}, {"iy"})},
                      {tensor_info("x", DataType::kFloat), tensor_info("i", DataType::kInt64)},
                      {tensor_info("y", DataType::kFloat), tensor_info("iy", DataType::kInt64)});
  add_initializer(g, "w", random_floats({4, 3, 1, 1}, 70, -1, 1));
  add_initializer(g, "shape", make<int64_t>({2}, {4, -1}));
  add_initializer(g, "one", make<int64_t>({}, {1}));
  ir::Model m = model_of(g);
  passes::optimize(m, OptimizationLevel::kBasic, Mode::kDefault);
  std::vector<std::string> kinds;
  for (const ir::Node& n : m.graph->nodes) kinds.push_back(n.op_type + "/" + std::to_string(n.elementwise_steps.size()));
  EXPECT_EQ(kinds, (std::vector<std::string>{"Conv/2", "Reshape/0", "FusedElementwise/2", "Reshape/0", "Add/0", "Mul/0"}));
  const Tensor x = random_floats({1, 3, 5, 5}, 71);
  const Tensor i = make<int64_t>({1, 100}, std::vector<int64_t>(100, 2));
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference}) {
    const Tensor fused = run_model(model_of(g), mode, OptimizationLevel::kAll, {{"x", x}, {"i", i}});
    const Tensor separate = run_model(model_of(g), mode, OptimizationLevel::kNone, {{"x", x}, {"i", i}});
    EXPECT_TRUE(same_bits(fused, separate)) << mode_name(mode);
  }
}

TEST(PassesElementwise, NothingChangesWithoutOptimization) {
  ir::Model m = affine_hardswish(5);
  passes::optimize(m, OptimizationLevel::kNone, Mode::kDefault);
  EXPECT_EQ(m.graph->nodes.size(), 8u);
}

}  // namespace
}  // namespace twinrt
