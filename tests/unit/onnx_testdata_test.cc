// Every model and test-data file of Debian's libonnx-testdata must load.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "onnx/loader.h"

namespace twinrt::onnx {
namespace {

namespace fs = std::filesystem;
const char* kTestDataRoot = "/usr/share/libonnx-testdata/data";

std::vector<fs::path> model_dirs() {
  std::vector<fs::path> dirs;
  if (!fs::exists(kTestDataRoot)) return dirs;
  for (const auto& suite : fs::directory_iterator(kTestDataRoot))
    for (const auto& test : fs::directory_iterator(suite.path()))
      if (fs::exists(test.path() / "model.onnx")) dirs.push_back(test.path());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

// The graph inputs a test feeds: those not backed by an initializer.
std::vector<const ir::ValueInfo*> fed_inputs(const ir::Graph& g) {
  std::vector<const ir::ValueInfo*> out;
  for (const auto& in : g.inputs)
    if (!g.initializers.count(in.name)) out.push_back(&in);
  return out;
}

void check_data_file(const fs::path& file, const ir::TypeInfo& type) {
  auto bytes = read_file(file.string());
  ASSERT_TRUE(bytes.is_ok()) << bytes.status().message();
  auto v = parse_value(bytes->data(), bytes->size(), type);
  EXPECT_TRUE(v.is_ok()) << file << ": " << v.status().message();
}

TEST(OnnxTestData, EveryModelAndDataFileLoads) {
  auto dirs = model_dirs();
  if (dirs.empty()) GTEST_SKIP() << "libonnx-testdata is not installed";
  size_t models = 0, files = 0;
  for (const auto& dir : dirs) {
    auto model = load_model_file((dir / "model.onnx").string());
    ASSERT_TRUE(model.is_ok()) << dir << ": " << model.status().message();
    ++models;
    auto inputs = fed_inputs(*model->graph);
    for (const auto& set : fs::directory_iterator(dir)) {
      if (!set.is_directory()) continue;
      for (size_t i = 0; i < inputs.size(); ++i) {
        fs::path f = set.path() / ("input_" + std::to_string(i) + ".pb");
        if (fs::exists(f)) { check_data_file(f, inputs[i]->type); ++files; }
      }
      for (size_t i = 0; i < model->graph->outputs.size(); ++i) {
        fs::path f = set.path() / ("output_" + std::to_string(i) + ".pb");
        if (fs::exists(f)) { check_data_file(f, model->graph->outputs[i].type); ++files; }
      }
    }
  }
  EXPECT_GT(models, 1000u);
  std::printf("loaded %zu models and %zu data files\n", models, files);
}

}  // namespace
}  // namespace twinrt::onnx
