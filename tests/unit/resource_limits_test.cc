// Resource limits (docs/security.md): sizes a model or an input declares are refused
// before anything is allocated, with an error naming the limit, and the session (or the
// process) keeps working afterwards.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>

#include "io/npz.h"
#include "ir/resource_limits.h"
#include "onnx/loader.h"
#include "onnx_test_protos.h"
#include "runtime/session_impl.h"

namespace twinrt {
namespace {

using onnx::testing::bytes_of;
using onnx::testing::identity_model;
using onnx::testing::raw_tensor;
using onnx::testing::tensor_header;

constexpr uint64_t kMiB = uint64_t{1} << 20;

void expect_refused(const Status& s, const std::string& names_what, const std::string& names_limit) {
  ASSERT_FALSE(s);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.message();
  EXPECT_NE(s.message().find(names_what), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(names_limit), std::string::npos) << s.message();
}

// Sets the process's limits for as long as it lives; sessions keep the limits they were
// loaded with.
class ScopedLimits {
 public:
  explicit ScopedLimits(ResourceLimits limits) { set_resource_limits(limits); }
  ~ScopedLimits() { set_resource_limits({}); }
};

Result<std::unique_ptr<SessionImpl>> create_limited(ir::Model m, uint64_t max_tensor, uint64_t max_memory = 0,
                                                     const SessionOptions& options = {}) {
  ScopedLimits limits({max_tensor, max_memory});
  return SessionImpl::create(std::move(m), options);
}

ir::Node node(std::string op, std::vector<std::string> in, std::vector<std::string> out, std::string domain = "") {
  ir::Node n;
  n.op_type = std::move(op);
  n.name = n.op_type;
  n.domain = std::move(domain);
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  return n;
}

ir::ValueInfo tensor_info(std::string name, DataType dtype, std::optional<ir::Shape> shape) {
  return {std::move(name), ir::TypeInfo::tensor(dtype, std::move(shape)), ""};
}

// y = ConstantOfShape(shape): the output's size is only known from the data at run time.
ir::Model constant_of_shape_model() {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports = {{"", 17}};
  m.graph = std::make_shared<ir::Graph>();
  m.graph->inputs = {tensor_info("shape", DataType::kInt64, ir::shape_of({2}))};
  m.graph->outputs = {tensor_info("y", DataType::kFloat, std::nullopt)};
  m.graph->nodes.push_back(node("ConstantOfShape", {"shape"}, {"y"}));
  return m;
}

Value shape_feed(int64_t rows, int64_t cols) { return Value::of(Tensor::from_vector<int64_t>({2}, {rows, cols}).value()); }

TEST(ResourceLimits, ByteSizesParseWithBinarySuffixes) {
  EXPECT_EQ(parse_byte_size("1024", "--x").value(), 1024u);
  EXPECT_EQ(parse_byte_size("512M", "--x").value(), 512 * kMiB);
  EXPECT_EQ(parse_byte_size("1.5G", "--x").value(), 1536 * kMiB);
  EXPECT_EQ(parse_byte_size("2GB", "--x").value(), 2048 * kMiB);
  for (const char* bad : {"", "0", "-1", "+5", "12Q", "G", "1e400", "nan"}) {
    auto r = parse_byte_size(bad, "--max-memory");
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.status().message().find("--max-memory"), std::string::npos);
  }
}

TEST(ResourceLimits, DefaultsAreFractionsOfPhysicalMemory) {
  const ResourceLimits d = default_resource_limits();
  EXPECT_EQ(d.max_memory_bytes, physical_memory_bytes() / 4);
  EXPECT_EQ(d.max_tensor_bytes, physical_memory_bytes() / 8);
  const ResourceLimits r = resolve_limits({5, 0});
  EXPECT_EQ(r.max_tensor_bytes, 5u);
  EXPECT_EQ(r.max_memory_bytes, d.max_memory_bytes);
}

TEST(ResourceLimits, DeclaredInputBeyondTheLargestTensorFailsAtLoad) {
  ir::Model m = constant_of_shape_model();
  m.graph->inputs = {tensor_info("x", DataType::kFloat, ir::shape_of({4, 1024, 1024, 1024}))};  // 16 GiB
  m.graph->nodes = {node("Identity", {"x"}, {"y"})};
  auto s = create_limited(std::move(m), kMiB);
  expect_refused(s.status(), "input 'x'", "--max-tensor-bytes");
}

TEST(ResourceLimits, DimOverridesAreCheckedLikeDeclaredShapes) {
  ir::Model m = constant_of_shape_model();
  m.graph->inputs = {tensor_info("x", DataType::kFloat, ir::Shape{ir::Dim::named("n"), ir::Dim::of(1024)})};
  m.graph->nodes = {node("Identity", {"x"}, {"y"})};
  SessionOptions o;
  o.dim_overrides["n"] = 1 << 20;
  auto s = create_limited(m, kMiB, 0, o);
  expect_refused(s.status(), "input 'x'", "--max-tensor-bytes");
  o.dim_overrides["n"] = 2;
  EXPECT_TRUE(create_limited(std::move(m), kMiB, 0, o));
}

TEST(ResourceLimits, InitializersAreCheckedOneByOneAndInTotal) {
  const std::string w = raw_tensor({256, 1024}, 1, std::string(kMiB, '\0'), "w");  // 1 MiB
  const std::string v = raw_tensor({256, 1024}, 1, std::string(kMiB, '\0'), "v");
  onnx::LoadOptions one;
  one.limits = {kMiB / 2, 0};
  const std::string model = identity_model({w, v});
  expect_refused(onnx::load_model_bytes(model.data(), model.size(), one).status(), "'w'", "--max-tensor-bytes");
  onnx::LoadOptions total;
  total.limits = {0, kMiB * 3 / 2};
  expect_refused(onnx::load_model_bytes(model.data(), model.size(), total).status(), "initializers together",
                 "--max-memory");
  onnx::LoadOptions enough;
  enough.limits = {kMiB, 2 * kMiB};
  EXPECT_TRUE(onnx::load_model_bytes(model.data(), model.size(), enough));
}

TEST(ResourceLimits, SparseInitializersAreCheckedBeforeDensifying) {
  // One stored value each, declaring a 4 MiB dense tensor: eight of them are 32 MiB.
  onnx::wire::WireWriter sparse;
  sparse.bytes_field(onnx::sparse_tensor_proto::kValues, raw_tensor({1}, 1, bytes_of<float>({1}), "w"));
  sparse.bytes_field(onnx::sparse_tensor_proto::kIndices, raw_tensor({1}, 7, bytes_of<int64_t>({0})));
  sparse.packed_int64s(onnx::sparse_tensor_proto::kDims, {1024, 1024});
  const std::string model = identity_model({}, std::vector<std::string>(8, sparse.bytes()));
  onnx::LoadOptions o;
  o.limits = {2 * kMiB, 0};
  expect_refused(onnx::load_model_bytes(model.data(), model.size(), o).status(), "dense float32[1024,1024]",
                 "--max-tensor-bytes");
  // All eight are added up before the first is densified.
  o.limits = {4 * kMiB, 10 * kMiB};
  expect_refused(onnx::load_model_bytes(model.data(), model.size(), o).status(), "initializers together",
                 "--max-memory");
}

TEST(ResourceLimits, ValuesMadeWhileRunningAreCheckedAndTheSessionKeepsWorking) {
  auto s = create_limited(constant_of_shape_model(), kMiB);
  ASSERT_TRUE(s) << s.status().message();
  auto big = (*s)->run({{"shape", shape_feed(1 << 20, 1 << 20)}});  // 4 TiB
  expect_refused(big.status(), "float32[1048576,1048576]", "--max-tensor-bytes");
  auto small = (*s)->run({{"shape", shape_feed(2, 3)}});
  ASSERT_TRUE(small) << small.status().message();
  EXPECT_EQ(small->at("y").tensor.numel(), 6);
}

TEST(ResourceLimits, ValuesAliveTogetherCountAgainstTheMemoryLimit) {
  // y = ConstantOfShape(shape); z = Add(y, y): y and z are alive together.
  ir::Model m = constant_of_shape_model();
  m.graph->outputs = {tensor_info("z", DataType::kFloat, std::nullopt)};
  m.graph->nodes.push_back(node("Add", {"y", "y"}, {"z"}));
  auto s = create_limited(std::move(m), kMiB, 3 * kMiB / 2);
  ASSERT_TRUE(s) << s.status().message();
  auto r = (*s)->run({{"shape", shape_feed(256, 1024)}});  // 1 MiB each
  expect_refused(r.status(), "float32[256,1024]", "--max-memory");
  EXPECT_TRUE((*s)->run({{"shape", shape_feed(16, 1024)}}));
}

TEST(ResourceLimits, FeedsBeyondTheLargestTensorAreRefused) {
  ir::Model m = constant_of_shape_model();
  m.graph->inputs = {tensor_info("x", DataType::kFloat, std::nullopt)};
  m.graph->nodes = {node("Identity", {"x"}, {"y"})};
  auto s = create_limited(std::move(m), kMiB);
  ASSERT_TRUE(s) << s.status().message();
  auto x = Tensor::create(DataType::kFloat, {512, 1024}).value();  // 2 MiB
  expect_refused((*s)->run({{"x", Value::of(x)}}).status(), "input 'x'", "--max-tensor-bytes");
}

// Thirty functions, each calling the next twice: 2^30 nodes once inlined.
TEST(ResourceLimits, FanOutFunctionsFailFastInsteadOfInliningForever) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports = {{"", 17}, {"local", 1}};
  constexpr int kLevels = 30;
  for (int level = 0; level < kLevels; ++level) {
    ir::Function f;
    f.name = "F" + std::to_string(level);
    f.domain = "local";
    f.inputs = {"a"};
    f.outputs = {"c"};
    const std::string callee = level + 1 < kLevels ? "F" + std::to_string(level + 1) : "";
    if (callee.empty()) {
      f.nodes = {node("Identity", {"a"}, {"b"}), node("Identity", {"b"}, {"c"})};
    } else {
      f.nodes = {node(callee, {"a"}, {"b"}, "local"), node(callee, {"b"}, {"c"}, "local")};
    }
    m.functions.push_back(std::move(f));
  }
  m.graph = std::make_shared<ir::Graph>();
  m.graph->inputs = {tensor_info("x", DataType::kFloat, ir::shape_of({1}))};
  m.graph->outputs = {tensor_info("y", DataType::kFloat, ir::shape_of({1}))};
  m.graph->nodes = {node("F0", {"x"}, {"y"}, "local")};
  const auto start = std::chrono::steady_clock::now();
  auto s = SessionImpl::create(std::move(m), {});
  ASSERT_FALSE(s);
  EXPECT_NE(s.status().message().find("fan-out"), std::string::npos) << s.status().message();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

// A zip holding one stored member whose directory entry declares `declared` bytes.
std::string zip_declaring(uint32_t declared) {
  const std::string name = "x.npy", data = "tiny";
  auto u16 = [](uint32_t v) { return std::string{char(v & 0xff), char(v >> 8 & 0xff)}; };
  auto u32 = [&](uint32_t v) { return u16(v & 0xffff) + u16(v >> 16); };
  const uint32_t crc = io::crc32(data);
  std::string local = u32(0x04034b50) + u16(20) + u16(0) + u16(0) + u16(0) + u16(0) + u32(crc) +
                      u32(uint32_t(data.size())) + u32(declared) + u16(uint32_t(name.size())) + u16(0) + name + data;
  std::string central = u32(0x02014b50) + u16(20) + u16(20) + u16(0) + u16(8) + u16(0) + u16(0) + u32(crc) +
                        u32(uint32_t(data.size())) + u32(declared) + u16(uint32_t(name.size())) + u16(0) + u16(0) +
                        u16(0) + u16(0) + u32(0) + u32(0) + name;
  std::string end = u32(0x06054b50) + u16(0) + u16(0) + u16(1) + u16(1) + u32(uint32_t(central.size())) +
                    u32(uint32_t(local.size())) + u16(0);
  return local + central + end;
}

TEST(ResourceLimits, NpzMembersAreCheckedBeforeInflating) {
  auto r = io::parse_npz(zip_declaring(0xF0000000u), "bomb.npz", {kMiB, 0});  // declares 3.75 GiB
  expect_refused(r.status(), "bomb.npz:x.npy", "--max-tensor-bytes");
}

}  // namespace
}  // namespace twinrt
