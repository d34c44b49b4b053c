// What the graph and feed fuzzers (tests/fuzz/fuzz_graph.cc, fuzz_feeds.cc) found, each
// reproduced through the public API: the model is serialized and loaded with
// Session::load_bytes, as a user would.
#include <gtest/gtest.h>

#include "control_model_builder.h"
#include "onnx/writer.h"
#include "twinrt/limits.h"

namespace twinrt {
namespace {

using namespace control_testing;

constexpr int64_t kHuge = int64_t{1} << 40;

Result<std::unique_ptr<Session>> load(ir::Graph g, int64_t opset = 17) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = opset;
  m.graph = std::make_shared<ir::Graph>(std::move(g));
  auto bytes = onnx::write_model(m);
  if (!bytes) return bytes.status();
  return Session::load_bytes(bytes->data(), bytes->size(), {});
}

void expect_error(const Status& st, const std::string& fragment) {
  ASSERT_FALSE(st.is_ok()) << "expected an error containing '" << fragment << "'";
  EXPECT_NE(st.message().find(fragment), std::string::npos) << st.message();
}

ir::Graph argmax_of(const std::string& x, std::vector<ir::Node> before = {}) {
  before.push_back(node("ArgMax", {x}, {"y"}, {int_attr("axis", 1)}));
  return graph(std::move(before), {}, {tensor_info("y", DataType::kInt64)});
}

// fuzz_feeds: an empty feed whose other dims are 2^40 made ArgMax loop 2^40 times (a hang);
// every kernel that loops over outer dims could. Such tensors are refused by the limits.
TEST(FuzzFindings, EmptyFeedWithHugeDimsIsRefused) {
  ir::Graph g = argmax_of("x");
  g.inputs.push_back(tensor_info("x", DataType::kFloat, std::vector<int64_t>{-1, -1, -1}));
  auto s = load(g);
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  auto empty = Tensor::create(DataType::kFloat, {kHuge, 3, 0});
  ASSERT_TRUE(empty.is_ok());
  expect_error((*s)->run({{"x", Value::of(*empty)}}).status(),
               "input 'x' is empty, but its other dims would need 12 TiB, more than the largest tensor allowed");
  // An ordinary empty tensor still runs.
  auto small = Tensor::create(DataType::kFloat, {2, 3, 0});
  auto out = (*s)->run({{"x", Value::of(*small)}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at("y").tensor.shape(), (std::vector<int64_t>{2, 1, 0}));
}

// The same shape made while running, as a view (Reshape allocates nothing).
TEST(FuzzFindings, EmptyViewWithHugeDimsIsRefused) {
  ir::Graph g = argmax_of("r", {node("Reshape", {"x", "shape"}, {"r"}, {int_attr("allowzero", 1)})});
  g.inputs = {tensor_info("x", DataType::kFloat, std::vector<int64_t>{0}),
              tensor_info("shape", DataType::kInt64, std::vector<int64_t>{3})};
  auto s = load(g);
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  expect_error((*s)->run({{"x", val<float>({0}, {})}, {"shape", val<int64_t>({3}, {kHuge, 3, 0})}}).status(),
               "node 'Reshape_node' (Reshape): a float32[1099511627776,3,0] tensor is empty, but its other dims");
}

// And as an initializer, refused when the model is loaded.
TEST(FuzzFindings, EmptyInitializerWithHugeDimsIsRefused) {
  ir::Graph g = argmax_of("w");
  g.initializers["w"] = make<float>({kHuge, 3, 0}, {});
  g.initializer_order = {"w"};
  expect_error(load(g).status(), "float32[1099511627776,3,0] is empty, but its other dims");
}

// fuzz_feeds: a float feed viewed at byte offset 1 reached Range's kernel, which read it
// through a misaligned float pointer (UBSan). Views must be aligned for their type.
TEST(FuzzFindings, MisalignedViewsAreRefused) {
  class Bytes final : public Storage {
   public:
    std::byte* data() override { return bytes_; }
    size_t size() const override { return sizeof bytes_; }

   private:
    alignas(16) std::byte bytes_[32] = {};
  };
  auto storage = std::make_shared<Bytes>();
  expect_error(Tensor::view(DataType::kFloat, {2}, storage, 1).status(),
               "cannot view storage at byte offset 1 as float32: its data must be aligned to 4 bytes");
  expect_error(Tensor::view(DataType::kComplex128, {1}, storage, 4).status(), "aligned to 8 bytes");
  EXPECT_TRUE(Tensor::view(DataType::kFloat, {2}, storage, 4).is_ok());
  EXPECT_TRUE(Tensor::view(DataType::kComplex64, {1}, storage, 4).is_ok());
  EXPECT_TRUE(Tensor::view(DataType::kUInt8, {2}, storage, 1).is_ok());
  EXPECT_TRUE(Tensor::view(DataType::kFloat, {0}, storage, 1).is_ok());  // nothing is read
}

// fuzz_graph: ConvInteger with a constant W of 0 input channels ([2,0,1,1]) packed it at load,
// adding offsets to its null data (UBSan, in the sanitizer build of these tests); MatMulInteger
// packs constant B the same way. Empty weights are not packed, and the products are zeros.
TEST(FuzzFindings, EmptyInt8WeightsAreNotPacked) {
  ir::Graph conv = graph({node("ConvInteger", {"x", "w"}, {"y"})},
                         {tensor_info("x", DataType::kUInt8, std::vector<int64_t>{1, 0, 3, 3})},
                         {tensor_info("y", DataType::kInt32)});
  conv.initializers["w"] = make<uint8_t>({2, 0, 1, 1}, {});
  conv.initializer_order = {"w"};
  auto s = load(conv);
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  auto y = (*s)->run({{"x", val<uint8_t>({1, 0, 3, 3}, {})}});
  ASSERT_TRUE(y.is_ok()) << y.status().message();
  EXPECT_EQ(values_of<int32_t>(y->at("y").tensor), std::vector<int32_t>(18, 0));

  ir::Graph matmul = graph({node("MatMulInteger", {"a", "b"}, {"y"})},
                           {tensor_info("a", DataType::kInt8, std::vector<int64_t>{2, 0})},
                           {tensor_info("y", DataType::kInt32)});
  matmul.initializers["b"] = make<int8_t>({0, 3}, {});
  matmul.initializer_order = {"b"};
  s = load(matmul);
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  y = (*s)->run({{"a", val<int8_t>({2, 0}, {})}});
  ASSERT_TRUE(y.is_ok()) << y.status().message();
  EXPECT_EQ(values_of<int32_t>(y->at("y").tensor), std::vector<int32_t>(6, 0));
}

}  // namespace
}  // namespace twinrt
