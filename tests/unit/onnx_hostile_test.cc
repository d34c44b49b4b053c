// Corrupt, truncated and hostile model bytes must give an error, never a crash, hang or
// out-of-bounds read (run these under ASan/UBSan in the fuzz build for full effect).
#include <gtest/gtest.h>

#include <filesystem>

#include "onnx/loader.h"
#include "onnx/writer.h"
#include "onnx_test_protos.h"

namespace twinrt::onnx {
namespace {

const char* kRealModel = "/usr/share/libonnx-testdata/data/node/test_conv_with_strides_padding/model.onnx";

Result<ir::Model> load(const std::string& b) { return load_model_bytes(b.data(), b.size(), LoadOptions{}); }

TEST(OnnxHostile, EveryTruncationOfARealModelFails) {
  if (!std::filesystem::exists(kRealModel)) GTEST_SKIP() << "libonnx-testdata is not installed";
  std::string full = read_file(kRealModel).value();
  ASSERT_TRUE(load(full).is_ok());
  // onnx writes the graph before opset_import, so no strict prefix holds both.
  for (size_t n = 0; n < full.size(); ++n) {
    auto r = load(full.substr(0, n));
    ASSERT_FALSE(r.is_ok()) << "prefix of " << n << " bytes loaded";
    EXPECT_FALSE(r.status().message().empty());
  }
}

TEST(OnnxHostile, FlippedBytesNeverCrash) {
  std::string full = testing::identity_model(
      {testing::raw_tensor({2, 2}, 1, testing::bytes_of(std::vector<float>{1, 2, 3, 4}), "w")});
  if (std::filesystem::exists(kRealModel)) full = read_file(kRealModel).value();
  size_t failures = 0;
  for (size_t i = 0; i < full.size(); ++i) {
    for (uint8_t mask : {0x01, 0x08, 0x80, 0xff}) {
      std::string b = full;
      b[i] = static_cast<char>(b[i] ^ mask);
      auto r = load(b);
      if (!r.is_ok()) {
        ++failures;
        EXPECT_FALSE(r.status().message().empty());
      }
    }
  }
  EXPECT_GT(failures, 0u);
}

std::shared_ptr<ir::Graph> nested_graph(int levels) {
  auto g = std::make_shared<ir::Graph>();
  ir::Node n;
  n.op_type = "If";
  if (levels > 0) {
    ir::Attribute a;
    a.name = "then_branch";
    a.type = ir::Attribute::Type::kGraph;
    a.g = nested_graph(levels - 1);
    n.attributes.push_back(a);
  }
  g->nodes.push_back(n);
  return g;
}

TEST(OnnxHostile, DeeplyNestedGraphsAreRefused) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = 17;
  m.graph = nested_graph(10);
  EXPECT_TRUE(load(write_model(m).value()).is_ok());
  m.graph = nested_graph(200);
  auto r = load(write_model(m).value());
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("nested deeper"), std::string::npos) << r.status().message();
}

TEST(OnnxHostile, DeeplyNestedTypesAndValuesAreRefused) {
  ir::TypeInfo t = ir::TypeInfo::tensor(DataType::kFloat);
  for (int i = 0; i < 200; ++i) t = ir::TypeInfo::sequence_of(t);
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = 17;
  m.graph = std::make_shared<ir::Graph>();
  m.graph->inputs.push_back({"x", t, ""});
  auto r = load(write_model(m).value());
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("value 'x'"), std::string::npos) << r.status().message();

  // OptionalProto{optional_value: OptionalProto{...}} 200 deep.
  std::string opt;
  ir::TypeInfo expected = ir::TypeInfo::tensor(DataType::kFloat);
  for (int i = 0; i < 200; ++i) {
    testing::WireWriter w;
    w.int64_field(optional_proto::kElemType, 5);
    w.bytes_field(optional_proto::kOptionalValue, opt);
    opt = w.take();
    expected = ir::TypeInfo::optional_of(expected);
  }
  auto v = parse_value(opt.data(), opt.size(), expected);
  ASSERT_FALSE(v.is_ok());
  EXPECT_NE(v.status().message().find("nested deeper"), std::string::npos);
}

TEST(OnnxHostile, HugeLengthsAndBadTagsAreErrors) {
  testing::WireWriter w;
  w.int64_field(model_proto::kIrVersion, 8);
  std::string b = w.take();
  // graph field (7, LEN) whose length says 2^62 bytes.
  b += static_cast<char>((model_proto::kGraph << 3) | 2);
  for (int i = 0; i < 8; ++i) b += static_cast<char>(0x80);
  b += static_cast<char>(0x40);
  auto r = load(b);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("ModelProto"), std::string::npos) << r.status().message();

  EXPECT_FALSE(load(std::string("\x3a\x02\x0a", 3)).is_ok());   // graph LEN 2, 1 byte left
  EXPECT_FALSE(load(std::string("\x38\x01", 2)).is_ok());        // graph as a varint
  EXPECT_FALSE(load(std::string(16, '\xff')).is_ok());           // endless varint tag
}

TEST(OnnxHostile, InitializerErrorsNameTheInitializer) {
  auto model = testing::identity_model({testing::raw_tensor({3}, 1, "short", "weights")});
  auto r = load(model);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("initializer: tensor 'weights'"), std::string::npos)
      << r.status().message();
  auto dup = testing::identity_model({testing::raw_tensor({1}, 1, "abcd", "w"),
                                      testing::raw_tensor({1}, 1, "abcd", "w")});
  auto d = load(dup);
  ASSERT_FALSE(d.is_ok());
  EXPECT_NE(d.status().message().find("'w' is defined twice"), std::string::npos);
}

TEST(OnnxHostile, TwoGraphFieldsAreRefused) {
  // Protobuf merges repeated singular messages; twinrt used to keep the last graph silently.
  const std::string one = testing::identity_model({testing::raw_tensor({}, 1, "abcd", "w")});
  testing::WireWriter second_graph;
  second_graph.bytes_field(model_proto::kGraph, "");
  auto r = load(one + second_graph.take());
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("two graph fields"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace twinrt::onnx
