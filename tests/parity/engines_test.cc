// Engines: twinrt in-process, ONNX Runtime native / web / in Chromium through the Node.js
// runner. Expected values come from the ONNX backend test data (Debian libonnx-testdata),
// which ONNX computed with its own reference implementation.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "engines/engine.h"
#include "kernels/cpu/isa.h"
#include "onnx/loader.h"

namespace twinrt::engines {
namespace {

namespace fs = std::filesystem;

const std::string kNodeTests = "/usr/share/libonnx-testdata/data/node/";
const std::string kTools = std::string(TWINRT_SOURCE_DIR) + "/tools";

// An environment variable set for the lifetime of the object.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_.empty()) unsetenv(name_);
    else setenv(name_, old_.c_str(), 1);
  }

 private:
  const char* name_;
  std::string old_;
};

// A temporary folder removed with the object.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag)
      : path_(fs::temp_directory_path() / ("twinrt-engines-test-" + tag + "-" + std::to_string(getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// An executable shell script standing in for `node`.
std::string fake_node(const ScratchDir& dir, const std::string& body) {
  const fs::path file = dir.path() / "node";
  std::ofstream(file) << "#!/bin/sh\n" << body << "\n";
  fs::permissions(file, fs::perms::owner_all);
  return file.string();
}

Tensor read_pb(const std::string& file) {
  auto bytes = onnx::read_file(file);
  EXPECT_TRUE(bytes.is_ok()) << file << ": " << bytes.status().message();
  if (!bytes) return {};
  auto tensor = onnx::parse_tensor(bytes->data(), bytes->size());
  EXPECT_TRUE(tensor.is_ok()) << file << ": " << tensor.status().message();
  return tensor ? *tensor : Tensor();
}

// An ONNX node test: its model, the inputs of test_data_set_0 and the expected outputs.
struct NodeTest {
  std::string model;
  TensorMap inputs;
  std::vector<std::pair<std::string, Tensor>> expected;  // graph-output order
};

NodeTest node_test(const std::string& test, const std::vector<std::string>& inputs,
                   const std::vector<std::string>& outputs) {
  NodeTest t;
  t.model = kNodeTests + test + "/model.onnx";
  const std::string data = kNodeTests + test + "/test_data_set_0/";
  for (size_t i = 0; i < inputs.size(); ++i) t.inputs[inputs[i]] = read_pb(data + "input_" + std::to_string(i) + ".pb");
  for (size_t i = 0; i < outputs.size(); ++i)
    t.expected.emplace_back(outputs[i], read_pb(data + "output_" + std::to_string(i) + ".pb"));
  return t;
}

// Conv of a 1x1x7x5 image with a 3x3 kernel, stride 2, padding 1 (63 multiply-adds).
NodeTest conv_test() { return node_test("test_conv_with_strides_padding", {"x", "W"}, {"y"}); }

void expect_same_tensor(const Tensor& expected, const Tensor& actual, double tolerance, const std::string& what) {
  ASSERT_EQ(dtype_name(expected.dtype()), std::string(dtype_name(actual.dtype()))) << what;
  ASSERT_EQ(shape_to_string(expected.shape()), shape_to_string(actual.shape())) << what;
  if (expected.dtype() != DataType::kFloat) {
    EXPECT_EQ(0, std::memcmp(expected.raw(), actual.raw(), expected.nbytes())) << what << ": bytes differ";
    return;
  }
  for (int64_t i = 0; i < expected.numel(); ++i)
    ASSERT_NEAR(expected.data<float>()[i], actual.data<float>()[i], tolerance) << what << " element " << i;
}

void expect_runs_node_test(Engine& engine, const NodeTest& t, double tolerance) {
  ASSERT_TRUE(engine.load(t.model).is_ok()) << engine.name();
  auto out = engine.run(t.inputs, {});
  ASSERT_TRUE(out.is_ok()) << engine.name() << ": " << out.status().message();
  ASSERT_EQ(out->size(), t.expected.size()) << engine.name();
  for (const auto& [name, tensor] : t.expected) {
    ASSERT_TRUE(out->count(name)) << engine.name() << " gave no output " << name;
    expect_same_tensor(tensor, out->at(name), tolerance, engine.name() + " output " + name);
  }
}

bool have_node_test_data() { return fs::exists(kNodeTests + "test_conv_with_strides_padding/model.onnx"); }
bool have_node_and_ort() {
  return std::system("node --version >/dev/null 2>&1") == 0 && fs::exists(kTools + "/node_modules/onnxruntime-web");
}

// make_engine, failing the test (not skipping) when the engine cannot start.
std::unique_ptr<Engine> started(const std::string& name, const EngineOptions& options = {}) {
  auto engine = make_engine(name, options);
  EXPECT_TRUE(engine.is_ok()) << name << ": " << engine.status().message();
  return engine ? std::move(*engine) : nullptr;
}

TEST(Engines, TwinrtModesMatchOnnxTestData) {
  if (!have_node_test_data()) GTEST_SKIP() << "libonnx-testdata is not installed";
  for (const std::string name : {"twinrt", "twinrt-ref"}) {
    auto engine = started(name);
    ASSERT_TRUE(engine);
    expect_runs_node_test(*engine, conv_test(), 1e-5);
  }
}

TEST(Engines, TwinrtDescriptionNamesVersionModeAndThreads) {
  EngineOptions two_threads;
  two_threads.threads = 2;
  EXPECT_EQ(started("twinrt-ref")->description(),
            "twinrt 0.1.0 native, mode reference, scalar reference kernels, 1 thread");
  const std::string tier = kernels::isa_description(kernels::best_isa());
  EXPECT_EQ(started("twinrt", two_threads)->description(), "twinrt 0.1.0 native, mode default, " + tier + ", 2 threads");
  two_threads.isa = Isa::kScalar;
  EXPECT_EQ(started("twinrt-exact", two_threads)->description(),
            "twinrt 0.1.0 native, mode exact, " + kernels::isa_description(Isa::kScalar) + ", 2 threads");
}

TEST(Engines, OrtNativeAndWebMatchOnnxTestData) {
  if (!have_node_test_data() || !have_node_and_ort()) GTEST_SKIP() << "needs libonnx-testdata, node and tools/node_modules";
  for (const std::string name : {"ort", "ort-web"}) {
    auto engine = started(name);
    ASSERT_TRUE(engine);
    expect_runs_node_test(*engine, conv_test(), 1e-5);
    EXPECT_NE(engine->description().find("onnxruntime-"), std::string::npos) << engine->description();
    EXPECT_NE(engine->description().find("1.30"), std::string::npos) << engine->description();
  }
}

// bool, int32 and float16 tensors travel through the .npy files unchanged.
TEST(Engines, OrtCarriesBoolIntAndHalfTensors) {
  if (!have_node_test_data() || !have_node_and_ort()) GTEST_SKIP() << "needs libonnx-testdata, node and tools/node_modules";
  auto engine = started("ort");
  ASSERT_TRUE(engine);
  expect_runs_node_test(*engine, node_test("test_equal", {"x", "y"}, {"z"}), 0);
  expect_runs_node_test(*engine, node_test("test_cast_FLOAT_to_FLOAT16", {"input"}, {"output"}), 0);
}

TEST(Engines, OrtInBrowserMatchesOnnxTestData) {
  if (!have_node_test_data() || !have_node_and_ort()) GTEST_SKIP() << "needs libonnx-testdata, node and tools/node_modules";
  if (!fs::exists("/usr/bin/chromium")) GTEST_SKIP() << "chromium is not installed";
  auto engine = started("ort-browser");
  ASSERT_TRUE(engine);
  expect_runs_node_test(*engine, conv_test(), 1e-5);
  EXPECT_NE(engine->description().find("in Chromium"), std::string::npos) << engine->description();
}

TEST(Engines, RunReturnsOnlyTheRequestedOutputs) {
  if (!have_node_test_data() || !have_node_and_ort()) GTEST_SKIP() << "needs libonnx-testdata, node and tools/node_modules";
  const NodeTest t = node_test("test_argmax_default_axis_example", {"data"}, {"result"});
  for (const std::string name : {"twinrt", "ort"}) {
    auto engine = started(name);
    ASSERT_TRUE(engine && engine->load(t.model).is_ok()) << name;
    auto out = engine->run(t.inputs, {"result"});
    ASSERT_TRUE(out.is_ok()) << name << ": " << out.status().message();
    ASSERT_EQ(out->size(), 1u);
    expect_same_tensor(t.expected[0].second, out->at("result"), 0, name);
    EXPECT_FALSE(engine->run(t.inputs, {"no_such_output"}).is_ok()) << name;
  }
}

TEST(Engines, TimeRunsGivesOnePositiveTimePerRun) {
  if (!have_node_test_data()) GTEST_SKIP() << "libonnx-testdata is not installed";
  std::vector<std::string> names = {"twinrt"};
  if (have_node_and_ort()) names.push_back("ort-web");
  const NodeTest t = conv_test();
  for (const std::string& name : names) {
    auto engine = started(name);
    ASSERT_TRUE(engine && engine->load(t.model).is_ok()) << name;
    ASSERT_TRUE(engine->run(t.inputs, {}).is_ok()) << name;
    auto ms = engine->time_runs(t.inputs, 3);
    ASSERT_TRUE(ms.is_ok()) << name << ": " << ms.status().message();
    ASSERT_EQ(ms->size(), 3u) << name;
    for (double v : *ms) EXPECT_GT(v, 0) << name;
  }
}

TEST(Engines, UnknownNameListsTheKnownOnes) {
  auto engine = make_engine("onnxruntime", {});
  ASSERT_FALSE(engine.is_ok());
  EXPECT_EQ(engine.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(engine.status().message().find("unknown engine 'onnxruntime'"), std::string::npos);
  EXPECT_NE(engine.status().message().find("twinrt-ref, ort, ort-web, ort-browser"), std::string::npos)
      << engine.status().message();
}

TEST(Engines, BadGraphOptimizationLevelIsRefused) {
  EngineOptions options;
  options.graph_optimization = "max";
  auto engine = make_engine("ort", options);
  ASSERT_FALSE(engine.is_ok());
  EXPECT_EQ(engine.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(engine.status().message().find("'max'"), std::string::npos);
}

TEST(Engines, MissingNodeIsUnavailableWithInstallCommand) {
  ScopedEnv node("TWINRT_NODE", "/nonexistent/node");
  auto engine = make_engine("ort", {});
  ASSERT_FALSE(engine.is_ok());
  EXPECT_EQ(engine.status().code(), StatusCode::kUnavailable);
  const std::string m = engine.status().message();
  EXPECT_EQ(m.find("ort: "), 0u) << m;
  EXPECT_NE(m.find("apt-get install nodejs"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
}

TEST(Engines, MissingNpmPackageIsUnavailableWithInstallCommand) {
  if (!have_node_and_ort()) GTEST_SKIP() << "needs node";
  // A tools folder with the runner but without node_modules.
  ScratchDir tools("tools");
  fs::copy(kTools + "/engines", tools.path() / "engines", fs::copy_options::recursive);
  fs::copy(kTools + "/npy.js", tools.path() / "npy.js");
  ScopedEnv dir("TWINRT_TOOLS_DIR", tools.path().string());
  for (const std::string name : {"ort", "ort-web"}) {
    auto engine = make_engine(name, {});
    ASSERT_FALSE(engine.is_ok()) << name;
    EXPECT_EQ(engine.status().code(), StatusCode::kUnavailable) << name;
    const std::string m = engine.status().message();
    EXPECT_NE(m.find("is not installed; run: cd " + tools.path().string() + " && npm install --ignore-scripts"),
              std::string::npos) << m;
  }
}

TEST(Engines, RunnerThatDiesReportsItsLastWords) {
  ScratchDir dir("dies");
  ScopedEnv node("TWINRT_NODE", fake_node(dir, "echo 'something broke' >&2; exit 3"));
  auto engine = make_engine("ort-web", {});
  ASSERT_FALSE(engine.is_ok());
  EXPECT_EQ(engine.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(engine.status().message().find("exit code 3: something broke"), std::string::npos)
      << engine.status().message();
}

TEST(Engines, HungRunnerIsStoppedAfterTheTimeout) {
  ScratchDir dir("hangs");
  ScopedEnv node("TWINRT_NODE", fake_node(dir, "exec sleep 60"));
  ScopedEnv timeout("TWINRT_ENGINE_TIMEOUT_S", "0.5");
  const auto start = std::chrono::steady_clock::now();
  auto engine = make_engine("ort", {});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(engine.is_ok());
  EXPECT_EQ(engine.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(engine.status().message().find("no answer within"), std::string::npos) << engine.status().message();
  EXPECT_LT(seconds, 10.0);
}

TEST(Engines, ModelOrtRejectsCarriesOrtsOwnError) {
  if (!have_node_and_ort()) GTEST_SKIP() << "needs node and tools/node_modules";
  const std::string corrupt = std::string(TWINRT_SOURCE_DIR) + "/tests/cli/data/corrupt.onnx";
  for (const auto& [name, ort_text] : std::vector<std::pair<std::string, std::string>>{
           {"ort", "Protobuf parsing failed"}, {"ort-web", "protobuf parsing failed"}}) {
    auto engine = started(name);
    ASSERT_TRUE(engine);
    const Status st = engine->load(corrupt);
    EXPECT_EQ(st.code(), StatusCode::kInvalidModel) << name;
    EXPECT_NE(st.message().find(ort_text), std::string::npos) << name << ": " << st.message();
  }
}

}  // namespace
}  // namespace twinrt::engines
