// A session that read the model file itself releases the bytes of weights it keeps only
// packed (and of misaligned raw_data it copied): its results must equal those of a session
// that released nothing (loaded from bytes), run after run.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

#include <unistd.h>

#include "control_model_builder.h"
#include "onnx/file_bytes.h"
#include "onnx/loader.h"
#include "onnx/writer.h"
#include "twinrt/session.h"

namespace twinrt {
namespace {

using namespace control_testing;

Tensor seeded(DataType dtype, std::vector<int64_t> shape, int seed) {
  Tensor t = Tensor::create(dtype, std::move(shape)).value();
  uint32_t s = 2463534242u + static_cast<uint32_t>(seed);
  for (int64_t i = 0; i < t.numel(); ++i) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    if (dtype == DataType::kFloat) t.data<float>()[i] = static_cast<float>(s % 2001) / 1000.0f - 1.0f;
    else t.data<int64_t>()[i] = static_cast<int64_t>(s % 1000);
  }
  return t;
}

// y = MatMul(x, W) (W kept only packed: released), z = Gemm(x, W2, transB) (the same),
// g = Gather(E, ids) (E read as it is: kept), Add(W3, W3) and MatMul(x, W3) (W3 read by Add: kept).
ir::Model weights_model() {
  ir::Graph g = graph({node("MatMul", {"x", "W"}, {"y"}), node("Gemm", {"x", "W2"}, {"z"}, {int_attr("transB", 1)}),
                       node("Gather", {"E", "ids"}, {"g"}), node("Add", {"W3", "W3"}, {"w3x2"}),
                       node("MatMul", {"x", "W3"}, {"xw3"})},
                      {tensor_info("x", DataType::kFloat, {{4, 256}}), tensor_info("ids", DataType::kInt64, {{5}})},
                      {tensor_info("y", DataType::kFloat), tensor_info("z", DataType::kFloat),
                       tensor_info("g", DataType::kFloat), tensor_info("w3x2", DataType::kFloat),
                       tensor_info("xw3", DataType::kFloat)});
  const std::pair<const char*, Tensor> weights[] = {{"W", seeded(DataType::kFloat, {256, 512}, 1)},
                                                   {"W2", seeded(DataType::kFloat, {300, 256}, 2)},
                                                   {"E", seeded(DataType::kFloat, {1000, 64}, 3)},
                                                   {"W3", seeded(DataType::kFloat, {256, 4}, 4)}};
  for (const auto& [name, t] : weights) {
    g.initializers[name] = t;
    g.initializer_order.push_back(name);
  }
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = 17;
  m.graph = std::make_shared<ir::Graph>(g);
  return m;
}

TEST(SessionReleasedWeights, ResultsEqualASessionThatKeptEveryByte) {
  auto bytes = onnx::write_model(weights_model());
  ASSERT_TRUE(bytes) << bytes.status().message();
  const std::string path =
      (std::filesystem::temp_directory_path() / ("twinrt_released_" + std::to_string(::getpid()) + ".onnx")).string();
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_TRUE(f);
    std::fwrite(bytes->data(), 1, bytes->size(), f);
    std::fclose(f);
  }
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference}) {
    SessionOptions o;
    o.mode = mode;
    o.threads = 1;
    auto from_file = Session::load(path, o);
    auto from_bytes = Session::load_bytes(bytes->data(), bytes->size(), o);
    ASSERT_TRUE(from_file) << from_file.status().message();
    ASSERT_TRUE(from_bytes) << from_bytes.status().message();
    for (int run = 0; run < 3; ++run) {
      std::map<std::string, Value> feeds = {{"x", Value::of(seeded(DataType::kFloat, {4, 256}, 10 + run))},
                                            {"ids", Value::of(seeded(DataType::kInt64, {5}, 20 + run))}};
      auto got = (*from_file)->run(feeds);
      auto want = (*from_bytes)->run(feeds);
      ASSERT_TRUE(got) << got.status().message();
      ASSERT_TRUE(want) << want.status().message();
      for (const auto& [name, v] : *want) {
        const Tensor& a = got->at(name).tensor;
        ASSERT_EQ(a.shape(), v.tensor.shape()) << name;
        EXPECT_EQ(std::memcmp(a.raw(), v.tensor.raw(), a.nbytes()), 0) << name << " in mode " << mode_name(mode);
      }
    }
  }

  // What was released: W and W2 (packed only), not E (read by Gather). Each lives in the
  // file or in a copy of its own; the file is one storage for all.
  auto model = onnx::load_model_file(path, {});
  ASSERT_TRUE(model) << model.status().message();
  auto storage_of = [&](const char* name) {
    return dynamic_cast<onnx::ReleasableBytes*>(model->graph->initializers.at(name).storage().get());
  };
  std::map<std::string, size_t> before;
  for (const char* name : {"W", "W2", "E"}) {  // W3 (4 KiB) may be a plain heap copy
    ASSERT_TRUE(storage_of(name)) << name;
    before[name] = storage_of(name)->released();
  }
  const Tensor e = model->graph->initializers.at("E");
  std::vector<float> e_copy(e.data<float>(), e.data<float>() + e.numel());
  auto session = SessionImpl::create(std::move(*model), {}, /*owns_model_bytes=*/true);
  ASSERT_TRUE(session) << session.status().message();
  const ir::Model& m = (*session)->model();
  auto released = [&](const char* name) {
    auto* s = dynamic_cast<onnx::ReleasableBytes*>(m.graph->initializers.at(name).storage().get());
    return s->released() - before[name];
  };
  // A storage shared with other initializers (the file) counts their releases too: W's own
  // count covers at least its whole pages (512 KiB less two partial pages).
  EXPECT_GE(released("W"), 512u * 1024u - 8192u);
  EXPECT_GE(released("W2"), 300u * 1024u - 8192u);
  EXPECT_EQ(std::memcmp(e.raw(), e_copy.data(), e_copy.size() * sizeof(float)), 0);  // still readable
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace twinrt
