// Model reading through the writer: every IR feature written by write_model must come
// back unchanged from load_model_bytes / load_model_file.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "onnx/loader.h"
#include "onnx/file_bytes.h"
#include "onnx/writer.h"

namespace twinrt::onnx {
namespace {

using Type = ir::Attribute::Type;

ir::Attribute attr(std::string name, Type type) {
  ir::Attribute a;
  a.name = std::move(name);
  a.type = type;
  return a;
}

std::shared_ptr<ir::Graph> body_graph() {
  auto g = std::make_shared<ir::Graph>();
  g->name = "body";
  g->inputs.push_back({"b_in", ir::TypeInfo::tensor(DataType::kFloat, ir::Shape{}), ""});
  g->outputs.push_back({"b_out", ir::TypeInfo::tensor(DataType::kFloat, ir::Shape{}), ""});
  ir::Node n;
  n.op_type = "Identity";
  n.inputs = {"b_in"};
  n.outputs = {"b_out"};
  g->nodes.push_back(n);
  return g;
}

ir::Model sample_model() {
  ir::Model m;
  m.ir_version = 8;
  m.producer_name = "twinrt-test";
  m.producer_version = "1.0";
  m.domain = "test.domain";
  m.model_version = 3;
  m.doc = "model doc";
  m.opset_imports = {{"", 17}, {"custom", 1}};
  m.metadata_props = {{"author", "me"}, {"license", "none"}};
  auto g = std::make_shared<ir::Graph>();
  g->name = "main";
  g->doc = "graph doc";
  ir::Shape symbolic = {ir::Dim::named("batch"), ir::Dim::of(3), ir::Dim{}};
  g->inputs.push_back({"x", ir::TypeInfo::tensor(DataType::kFloat, symbolic), "input doc"});
  g->inputs.push_back({"s", ir::TypeInfo::sequence_of(ir::TypeInfo::tensor(DataType::kInt64)), ""});
  g->inputs.push_back({"o", ir::TypeInfo::optional_of(ir::TypeInfo::tensor(DataType::kDouble)), ""});
  ir::TypeInfo map;
  map.kind = ir::TypeInfo::Kind::kMap;
  map.key = DataType::kString;
  map.elem = DataType::kFloat;
  map.inner = std::make_shared<ir::TypeInfo>(ir::TypeInfo::tensor(DataType::kFloat));
  g->value_info.push_back({"m", map, ""});
  g->outputs.push_back({"y", ir::TypeInfo::tensor(DataType::kFloat), ""});
  g->initializers["w"] = Tensor::from_vector<float>({2}, {1.5f, -2.f}).value();
  g->initializers["names"] = Tensor::from_vector<std::string>({1}, {"abc"}).value();
  g->initializers["u8"] = Tensor::from_vector<uint8_t>({3}, {1, 2, 3}).value();
  g->initializer_order = {"w", "names", "u8"};

  ir::Node n;
  n.name = "n0";
  n.op_type = "Custom";
  n.domain = "custom";
  n.doc = "node doc";
  n.inputs = {"x", "", "w"};
  n.outputs = {"y"};
  auto f = attr("f", Type::kFloat); f.f = 0.25f;
  auto i = attr("i", Type::kInt); i.i = -9;
  auto s = attr("s", Type::kString); s.s = "str";
  auto t = attr("t", Type::kTensor); t.t = Tensor::from_vector<int32_t>({3}, {1, 2, 3}).value();
  auto gr = attr("g", Type::kGraph); gr.g = body_graph();
  auto fs = attr("floats", Type::kFloats); fs.floats = {1.f, 2.f};
  auto is = attr("ints", Type::kInts); is.ints = {-1, 0, 1LL << 40};
  auto ss = attr("strings", Type::kStrings); ss.strings = {"a", "b"};
  auto ts = attr("tensors", Type::kTensors);
  ts.tensors = {Tensor::from_vector<uint8_t>({1}, {7}).value()};
  auto gs = attr("graphs", Type::kGraphs); gs.graphs = {body_graph(), body_graph()};
  auto sp = attr("sparse", Type::kSparseTensor); sp.t = Tensor::from_vector<float>({2, 2}, {0, 1, 0, 2}).value();
  auto tp = attr("tp", Type::kTypeProto); tp.type_protos = {ir::TypeInfo::tensor(DataType::kBool)};
  auto tps = attr("tps", Type::kTypeProtos);
  tps.type_protos = {ir::TypeInfo::tensor(DataType::kInt8), ir::TypeInfo::sequence_of(ir::TypeInfo::tensor(DataType::kFloat))};
  n.attributes = {f, i, s, t, gr, fs, is, ss, ts, gs, sp, tp, tps};
  g->nodes.push_back(n);
  m.graph = g;

  ir::Function fn;
  fn.name = "Custom";
  fn.domain = "custom";
  fn.inputs = {"a", "b", "c"};
  fn.outputs = {"out"};
  fn.attribute_names = {"alpha"};
  auto def = attr("beta", Type::kFloat); def.f = 2.f;
  fn.attribute_defaults = {def};
  fn.opset_imports = {{"", 17}};
  ir::Node body;
  body.op_type = "Add";
  body.inputs = {"a", "c"};
  body.outputs = {"out"};
  auto ref = attr("alpha_ref", Type::kFloat);
  ref.ref_attr_name = "alpha";
  body.attributes = {ref};
  fn.nodes = {body};
  m.functions = {fn};
  return m;
}

template <class T>
std::vector<T> values(const Tensor& t) { return std::vector<T>(t.data<T>(), t.data<T>() + t.numel()); }

void expect_same_type(const ir::TypeInfo& a, const ir::TypeInfo& b) {
  EXPECT_EQ(ir::type_to_string(a), ir::type_to_string(b));
}

TEST(OnnxModel, WriterOutputReadsBackUnchanged) {
  ir::Model m = sample_model();
  auto bytes = write_model(m);
  ASSERT_TRUE(bytes.is_ok()) << bytes.status().message();
  auto back = load_model_bytes(bytes->data(), bytes->size(), LoadOptions{});
  ASSERT_TRUE(back.is_ok()) << back.status().message();

  EXPECT_EQ(back->ir_version, 8);
  EXPECT_EQ(back->producer_name, "twinrt-test");
  EXPECT_EQ(back->producer_version, "1.0");
  EXPECT_EQ(back->domain, "test.domain");
  EXPECT_EQ(back->model_version, 3);
  EXPECT_EQ(back->doc, "model doc");
  EXPECT_EQ(back->opset_imports, m.opset_imports);
  EXPECT_EQ(back->metadata_props, m.metadata_props);

  const ir::Graph& g = *back->graph;
  EXPECT_EQ(g.name, "main");
  EXPECT_EQ(g.doc, "graph doc");
  ASSERT_EQ(g.inputs.size(), 3u);
  EXPECT_EQ(g.inputs[0].doc, "input doc");
  for (size_t k = 0; k < 3; ++k) expect_same_type(g.inputs[k].type, m.graph->inputs[k].type);
  EXPECT_EQ((*g.inputs[0].type.shape)[0].symbol, "batch");
  EXPECT_FALSE((*g.inputs[0].type.shape)[2].known());
  ASSERT_EQ(g.value_info.size(), 1u);
  EXPECT_EQ(g.value_info[0].type.kind, ir::TypeInfo::Kind::kMap);
  EXPECT_EQ(g.value_info[0].type.key, DataType::kString);
  EXPECT_EQ(g.value_info[0].type.elem, DataType::kFloat);
  EXPECT_EQ(g.initializer_order, m.graph->initializer_order);
  EXPECT_EQ(values<float>(g.initializers.at("w")), (std::vector<float>{1.5f, -2.f}));
  EXPECT_EQ(g.initializers.at("names").data<std::string>()[0], "abc");

  ASSERT_EQ(g.nodes.size(), 1u);
  const ir::Node& n = g.nodes[0];
  EXPECT_EQ(n.describe(), "node 'n0' (custom:Custom)");
  EXPECT_EQ(n.inputs, (std::vector<std::string>{"x", "", "w"}));
  EXPECT_EQ(n.doc, "node doc");
  ASSERT_EQ(n.attributes.size(), 13u);
  for (size_t k = 0; k < n.attributes.size(); ++k) {
    EXPECT_EQ(n.attributes[k].name, m.graph->nodes[0].attributes[k].name);
    EXPECT_EQ(n.attributes[k].type, m.graph->nodes[0].attributes[k].type);
  }
  EXPECT_EQ(n.attr("f")->f, 0.25f);
  EXPECT_EQ(n.attr("i")->i, -9);
  EXPECT_EQ(n.attr("s")->s, "str");
  EXPECT_EQ(values<int32_t>(n.attr("t")->t), (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(n.attr("g")->g->nodes.at(0).op_type, "Identity");
  EXPECT_EQ(n.attr("floats")->floats, (std::vector<float>{1.f, 2.f}));
  EXPECT_EQ(n.attr("ints")->ints, (std::vector<int64_t>{-1, 0, 1LL << 40}));
  EXPECT_EQ(n.attr("strings")->strings, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(values<uint8_t>(n.attr("tensors")->tensors.at(0)), (std::vector<uint8_t>{7}));
  EXPECT_EQ(n.attr("graphs")->graphs.size(), 2u);
  EXPECT_EQ(values<float>(n.attr("sparse")->t), (std::vector<float>{0, 1, 0, 2}));
  EXPECT_EQ(n.attr("sparse")->t.shape(), (std::vector<int64_t>{2, 2}));
  expect_same_type(n.attr("tp")->type_protos.at(0), ir::TypeInfo::tensor(DataType::kBool));
  ASSERT_EQ(n.attr("tps")->type_protos.size(), 2u);
  expect_same_type(n.attr("tps")->type_protos[1], m.graph->nodes[0].attributes[12].type_protos[1]);

  ASSERT_EQ(back->functions.size(), 1u);
  const ir::Function& fn = back->functions[0];
  EXPECT_EQ(fn.name, "Custom");
  EXPECT_EQ(fn.domain, "custom");
  EXPECT_EQ(fn.inputs, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(fn.attribute_names, (std::vector<std::string>{"alpha"}));
  ASSERT_EQ(fn.attribute_defaults.size(), 1u);
  EXPECT_EQ(fn.attribute_defaults[0].f, 2.f);
  EXPECT_EQ(fn.opset_imports, (std::map<std::string, int64_t>{{"", 17}}));
  ASSERT_EQ(fn.nodes.size(), 1u);
  EXPECT_EQ(fn.nodes[0].attributes.at(0).ref_attr_name, "alpha");

  // Writing the loaded model again gives the same bytes: nothing was lost or reordered.
  auto again = write_model(*back);
  ASSERT_TRUE(again.is_ok());
  EXPECT_EQ(*again, *bytes);
}

TEST(OnnxModel, FileInitializersPointIntoTheFilesBytesInMemory) {
  ir::Model m = sample_model();
  auto path = std::filesystem::temp_directory_path() / ("twinrt_model_" + std::to_string(::getpid()) + ".onnx");
  ASSERT_TRUE(write_model_file(m, path.string()).is_ok());
  auto back = load_model_file(path.string());
  std::filesystem::remove(path);
  ASSERT_TRUE(back.is_ok()) << back.status().message();
  // Bytes need no alignment, so they are always viewed; wider types only when aligned.
  const Tensor& u8 = back->graph->initializers.at("u8");
  EXPECT_NE(dynamic_cast<FileBytes*>(u8.storage().get()), nullptr) << "uint8 initializer was copied";
  EXPECT_EQ(values<uint8_t>(u8), (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_EQ(values<float>(back->graph->initializers.at("w")), (std::vector<float>{1.5f, -2.f}));
}

TEST(OnnxModel, WriteErrorsSayWhy) {
  auto full = write_model_file(sample_model(), "/dev/full");
  ASSERT_FALSE(full.is_ok());
  EXPECT_NE(full.message().find("No space left on device"), std::string::npos) << full.message();
  auto missing = write_model_file(sample_model(), "/nonexistent-dir/m.onnx");
  ASSERT_FALSE(missing.is_ok());
  EXPECT_NE(missing.message().find("No such file or directory"), std::string::npos) << missing.message();
}

// Bytes owned by a test, handed to the loader as `keepalive`.
class StringStorage final : public Storage {
 public:
  explicit StringStorage(std::string s) : s_(std::move(s)) {}
  std::byte* data() override { return reinterpret_cast<std::byte*>(s_.data()); }
  size_t size() const override { return s_.size(); }

 private:
  std::string s_;
};

bool points_into(const Tensor& t, const std::string& buffer) {
  const char* p = static_cast<const char*>(t.raw());
  return p >= buffer.data() && p < buffer.data() + buffer.size();
}

TEST(OnnxModel, KeepaliveBytesAreViewedOtherBytesCopied) {
  std::string bytes = write_model(sample_model()).value();
  auto copied = load_model_bytes(bytes.data(), bytes.size(), LoadOptions{});
  ASSERT_TRUE(copied.is_ok());
  EXPECT_FALSE(points_into(copied->graph->initializers.at("u8"), bytes));

  auto storage = std::make_shared<StringStorage>(bytes);
  const std::byte* base = storage->data();
  auto viewed = load_model_bytes(base, storage->size(), LoadOptions{}, storage);
  ASSERT_TRUE(viewed.is_ok());
  const Tensor& u8 = viewed->graph->initializers.at("u8");
  EXPECT_EQ(u8.storage(), storage);
  EXPECT_EQ(values<uint8_t>(u8), (std::vector<uint8_t>{1, 2, 3}));
}

TEST(OnnxModel, MissingGraphOrOpsetIsAnError) {
  ir::Model m = sample_model();
  m.opset_imports.clear();
  std::string bytes = write_model(m).value();
  auto r = load_model_bytes(bytes.data(), bytes.size(), LoadOptions{});
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("opset_import"), std::string::npos);
  auto empty = load_model_bytes("", 0, LoadOptions{});
  ASSERT_FALSE(empty.is_ok());
  EXPECT_NE(empty.status().message().find("no graph"), std::string::npos);
}

TEST(OnnxModel, MissingFileIsAnIoError) {
  auto r = load_model_file("/nonexistent/dir/model.onnx");
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIoError);
  EXPECT_NE(r.status().message().find("/nonexistent/dir/model.onnx"), std::string::npos);
  auto f = read_file("/nonexistent/file.pb");
  EXPECT_FALSE(f.is_ok());
}

}  // namespace
}  // namespace twinrt::onnx
