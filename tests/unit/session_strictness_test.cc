// Issue 14: what a session refuses and how feeds are normalised — unknown and duplicate
// attributes, names defined twice, opsets beyond twinrt's, pads the spec forbids, bool
// bytes other than 0/1, sequence element types, integer division by zero, thread limits.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <climits>
#include <cstring>
#include <fstream>

#include "control_model_builder.h"
#include "onnx/loader.h"
#include "onnx/writer.h"
#include "runtime/thread_pool.h"

namespace twinrt {
namespace {

using namespace control_testing;

ir::Model model_of(ir::Graph g, int64_t opset = 17) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = opset;
  m.graph = std::make_shared<ir::Graph>(std::move(g));
  return m;
}

Result<std::unique_ptr<SessionImpl>> compile(ir::Graph g, SessionOptions options = {}, int64_t opset = 17) {
  return SessionImpl::create(model_of(std::move(g), opset), options);
}

void expect_error(const Status& st, const std::string& fragment) {
  ASSERT_FALSE(st.is_ok()) << "expected an error containing '" << fragment << "'";
  EXPECT_NE(st.message().find(fragment), std::string::npos) << st.message();
}

ir::Graph leaky_relu(std::vector<ir::Attribute> attrs) {
  return graph({node("LeakyRelu", {"x"}, {"y"}, std::move(attrs))}, {tensor_info("x", DataType::kFloat, {{2}})},
               {tensor_info("y", DataType::kFloat)});
}

TEST(SessionStrictness, UnknownAttributeIsAnErrorNamingNodeAndAttribute) {
  auto s = compile(leaky_relu({float_attr("alpah", 0.5f)}));
  expect_error(s.status(), "node 'LeakyRelu_node' (LeakyRelu): unknown attribute 'alpah'");
  EXPECT_TRUE(compile(leaky_relu({float_attr("alpha", 0.5f)})).is_ok());
}

TEST(SessionStrictness, LenientTurnsUnknownAttributesIntoWarnings) {
  SessionOptions lenient;
  lenient.lenient = true;
  auto s = compile(leaky_relu({float_attr("alpah", 0.5f)}), lenient);
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  ASSERT_EQ((*s)->warnings().size(), 1u);
  EXPECT_NE((*s)->warnings()[0].find("unknown attribute 'alpah' is ignored"), std::string::npos);
}

TEST(SessionStrictness, AttributesReadOnlyInSomeBranchesAreKnown) {
  // LSTM reads `clip` through has_attr and `activations` only when present.
  auto g = graph({node("LSTM", {"X", "W", "R"}, {"Y"},
                       {int_attr("hidden_size", 1), float_attr("clip", 3.0f), strings_attr("activations", {"Sigmoid", "Tanh", "Tanh"})})},
                 {any_info("X"), any_info("W"), any_info("R")}, {any_info("Y")});
  auto s = compile(g);
  EXPECT_TRUE(s.is_ok()) << s.status().message();
}

TEST(SessionStrictness, DuplicateAttributeIsAnError) {
  expect_error(compile(leaky_relu({float_attr("alpha", 0.5f), float_attr("alpha", 0.1f)})).status(),
               "node 'LeakyRelu_node' (LeakyRelu): attribute 'alpha' is given twice");
}

TEST(SessionStrictness, OpsetBeyondWhatTwinrtImplementsIsAnError) {
  expect_error(compile(leaky_relu({}), {}, 99).status(), "imports ai.onnx opset 99");
  EXPECT_TRUE(compile(leaky_relu({}), {}, 18).is_ok());
}

TEST(SessionStrictness, NamesDefinedTwiceAreErrors) {
  auto two_nodes = graph({node("Relu", {"x"}, {"y"}), node("Neg", {"x"}, {"y"})},
                         {tensor_info("x", DataType::kFloat, {{2}})}, {tensor_info("y", DataType::kFloat)});
  expect_error(compile(two_nodes).status(), "output 'y' is also produced by node 'Relu_node'");
  auto one_node = graph({node("Split", {"x"}, {"y", "y"}, {int_attr("axis", 0)})},
                        {tensor_info("x", DataType::kFloat, {{2}})}, {tensor_info("y", DataType::kFloat)});
  expect_error(compile(one_node).status(), "output 'y' is also produced by this node");
}

TEST(SessionStrictness, DuplicateGraphInputIsAClearError) {
  // With an initializer of the same name this used to throw std::out_of_range ("map::at").
  ir::Graph g = graph({node("Relu", {"x"}, {"y"})},
                      {tensor_info("x", DataType::kFloat, {{2}}), tensor_info("x", DataType::kFloat, {{2}})},
                      {tensor_info("y", DataType::kFloat)});
  expect_error(compile(g).status(), "input 'x' is listed twice");
  g.initializers["x"] = make<float>({2}, {1, 2});
  g.initializer_order = {"x"};
  expect_error(compile(g).status(), "input 'x' is listed twice");
}

TEST(SessionStrictness, PoolPadsMustBeSmallerThanTheKernel) {
  auto pool = [](std::vector<int64_t> pads) {
    return graph({node("MaxPool", {"x"}, {"y"}, {ints_attr("kernel_shape", {2}), ints_attr("pads", std::move(pads))})},
                 {tensor_info("x", DataType::kFloat, {{1, 1, 4}})}, {tensor_info("y", DataType::kFloat)});
  };
  expect_error(compile(pool({2, 0})).status(), "node 'MaxPool_node' (MaxPool): pads [2,0] must be smaller");
  expect_error(compile(pool({0, 3})).status(), "must be smaller than kernel_shape [2]");
  EXPECT_TRUE(compile(pool({1, 1})).is_ok());
}

// A bool tensor holding the bytes 2, 255, 0, 1.
Tensor odd_bools() {
  Tensor t = Tensor::create(DataType::kBool, {4}).value();
  const uint8_t bytes[] = {2, 255, 0, 1};
  std::memcpy(t.raw(), bytes, 4);
  return t;
}

std::vector<uint8_t> bytes_of(const Tensor& t) {
  const auto* p = static_cast<const uint8_t*>(t.raw());
  return {p, p + t.nbytes()};
}

TEST(SessionBools, RawBytesInTheModelAreNormalised) {
  ir::Graph g = graph({node("Not", {"b"}, {"y"})}, {}, {tensor_info("y", DataType::kBool)});
  g.initializers["b"] = odd_bools();
  g.initializer_order = {"b"};
  auto bytes = onnx::write_model(model_of(g));
  ASSERT_TRUE(bytes.is_ok());
  auto m = onnx::load_model_bytes(bytes->data(), bytes->size(), {});
  ASSERT_TRUE(m.is_ok()) << m.status().message();
  EXPECT_EQ(bytes_of(m->graph->initializers.at("b")), (std::vector<uint8_t>{1, 1, 0, 1}));
  auto s = SessionImpl::create(std::move(m).value(), {});
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  auto out = (*s)->run({});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(bytes_of(out->at("y").tensor), (std::vector<uint8_t>{0, 0, 1, 0}));  // ONNX Runtime: same
}

TEST(SessionBools, FedBytesAreNormalisedWithoutTouchingTheCallersTensor) {
  auto s = compile(graph({node("Not", {"b"}, {"y"})}, {tensor_info("b", DataType::kBool, {{4}})},
                         {tensor_info("y", DataType::kBool)}));
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  Tensor fed = odd_bools();
  auto out = (*s)->run({{"b", Value::of(fed)}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(bytes_of(out->at("y").tensor), (std::vector<uint8_t>{0, 0, 1, 0}));
  EXPECT_EQ(bytes_of(fed), (std::vector<uint8_t>{2, 255, 0, 1}));
}

TEST(SessionFeeds, SequenceElementsMustHaveTheDeclaredType) {
  auto s = compile(graph({node("SequenceLength", {"s"}, {"n"})}, {sequence_info("s", DataType::kFloat)},
                         {tensor_info("n", DataType::kInt64)}));
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  auto wrong = (*s)->run({{"s", Value::of_sequence({make<int64_t>({1}, {7})}, DataType::kInt64)}});
  expect_error(wrong.status(), "input 's' must be a sequence of float32 tensors, got one of int64");
  auto mixed = (*s)->run({{"s", Value::of_sequence({make<float>({1}, {1}), make<int64_t>({1}, {7})}, DataType::kFloat)}});
  expect_error(mixed.status(), "input 's' element 1 is int64 in a sequence of float32");
  auto ok = (*s)->run({{"s", Value::of_sequence({make<float>({1}, {1})}, DataType::kFloat)}});
  ASSERT_TRUE(ok.is_ok()) << ok.status().message();
  EXPECT_EQ(values_of<int64_t>(ok->at("n").tensor), (std::vector<int64_t>{1}));
}

TEST(SessionIntegerDivision, DivisionByZeroIsAnErrorAndMinByMinusOneWraps) {
  for (const char* op : {"Div", "Mod"}) {
    auto s = compile(graph({node(op, {"a", "b"}, {"q"})},
                           {tensor_info("a", DataType::kInt32, {{2}}), tensor_info("b", DataType::kInt32, {{2}})},
                           {tensor_info("q", DataType::kInt32)}));
    ASSERT_TRUE(s.is_ok()) << s.status().message();
    auto by_zero = (*s)->run({{"a", val<int32_t>({2}, {7, 8})}, {"b", val<int32_t>({2}, {1, 0})}});
    expect_error(by_zero.status(), "by zero: divisor B is 0 at flat index 1");
    auto wraps = (*s)->run({{"a", val<int32_t>({2}, {INT32_MIN, 7})}, {"b", val<int32_t>({2}, {-1, 2})}});
    ASSERT_TRUE(wraps.is_ok()) << wraps.status().message();
    const int32_t first = std::string(op) == "Div" ? INT32_MIN : 0;
    EXPECT_EQ(values_of<int32_t>(wraps->at("q").tensor), (std::vector<int32_t>{first, std::string(op) == "Div" ? 3 : 1}));
  }
}

TEST(SessionThreads, ThreadCountIsCapped) {
  SessionOptions options;
  options.threads = kMaxThreads + 1;
  expect_error(compile(leaky_relu({}), options).status(), "threads must be between 0 (all hardware threads) and 256");
  expect_error(ThreadPool::create(0).status(), "between 1 and 256");
}

// Runs in a child process whose address space has room for only a few thread stacks:
// starting 200 threads must fail with an error (it used to hang or abort). Exit 0 if so.
void start_threads_with_little_address_space() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0;
  statm >> pages;
  const rlim_t room = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + (48u << 20);
  struct rlimit limit {room, room};
  ::setrlimit(RLIMIT_AS, &limit);
  auto pool = ThreadPool::create(200);
  const bool clear = !pool.is_ok() && pool.status().message().find("cannot start thread") != std::string::npos;
  ::_exit(clear ? 0 : 1);
}

TEST(SessionThreadsDeathTest, ThreadsThatCannotStartAreAnErrorNotAHang) {
  EXPECT_EXIT(start_threads_with_little_address_space(), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace twinrt
