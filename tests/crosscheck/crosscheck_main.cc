// twinrt_crosscheck DATA_DIR: parses every <suite>/<test>/model.onnx and its
// test_data_set_*/{input,output}_N.pb with libprotobuf and with twinrt, and reports every
// difference. Exit 0: identical; 1: differences or load failures; 77: no test data.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "crosscheck_compare.h"
#include "onnx/loader.h"

namespace fs = std::filesystem;
using namespace twinrt;
namespace loader = twinrt::onnx;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Parses one test-data file both ways, choosing the message by the declared type.
void check_data_file(const fs::path& file, const ir::TypeInfo& type, crosscheck::Comparer& cmp,
                     std::vector<std::string>& failures) {
  std::string bytes = slurp(file);
  auto got = loader::parse_value(bytes.data(), bytes.size(), type);
  if (!got) {
    failures.push_back(file.string() + ": twinrt: " + got.status().message());
    return;
  }
  const std::string where = file.string();
  bool parsed = false;
  if (type.kind == ir::TypeInfo::Kind::kSequence) {
    ::onnx::SequenceProto want;
    if ((parsed = want.ParseFromString(bytes))) cmp.sequence(where, want, *got);
  } else if (type.kind == ir::TypeInfo::Kind::kOptional) {
    ::onnx::OptionalProto want;
    if ((parsed = want.ParseFromString(bytes))) cmp.optional(where, want, *got);
  } else {
    ::onnx::TensorProto want;
    if ((parsed = want.ParseFromString(bytes))) cmp.tensor(where, want, got->tensor);
  }
  if (!parsed) failures.push_back(where + ": libprotobuf could not parse it");
}

// Returns how many model facts were compared.
size_t check_model_dir(const fs::path& dir, crosscheck::Comparer& cmp, std::vector<std::string>& failures) {
  const fs::path model_path = dir / "model.onnx";
  ::onnx::ModelProto want;
  if (!want.ParseFromString(slurp(model_path))) {
    failures.push_back(model_path.string() + ": libprotobuf could not parse it");
    return 0;
  }
  auto got = loader::load_model_file(model_path.string());
  if (!got) {
    failures.push_back(model_path.string() + ": twinrt: " + got.status().message());
    return 0;
  }
  crosscheck::Comparer model_cmp;
  model_cmp.model(want, *got);
  for (const auto& d : model_cmp.differences()) failures.push_back(model_path.string() + ": " + d);

  const ir::Graph& g = *got->graph;
  std::vector<const ir::ValueInfo*> fed;
  for (const auto& in : g.inputs)
    if (!g.initializers.count(in.name)) fed.push_back(&in);
  for (const auto& set : fs::directory_iterator(dir)) {
    if (!set.is_directory()) continue;
    for (size_t i = 0; i < fed.size(); ++i) {
      fs::path f = set.path() / ("input_" + std::to_string(i) + ".pb");
      if (fs::exists(f)) check_data_file(f, fed[i]->type, cmp, failures);
    }
    for (size_t i = 0; i < g.outputs.size(); ++i) {
      fs::path f = set.path() / ("output_" + std::to_string(i) + ".pb");
      if (fs::exists(f)) check_data_file(f, g.outputs[i].type, cmp, failures);
    }
  }
  return model_cmp.checked_values();
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path root = argc > 1 ? argv[1] : "/usr/share/libonnx-testdata/data";
  if (!fs::is_directory(root)) {
    std::printf("crosscheck skipped: no test data at %s\n", root.c_str());
    return 77;
  }
  std::vector<fs::path> dirs;
  for (const auto& suite : fs::directory_iterator(root))
    if (suite.is_directory())
      for (const auto& test : fs::directory_iterator(suite.path()))
        if (fs::exists(test.path() / "model.onnx")) dirs.push_back(test.path());
  std::sort(dirs.begin(), dirs.end());

  crosscheck::Comparer data_cmp;
  std::vector<std::string> failures;
  size_t model_facts = 0;
  for (const auto& dir : dirs) model_facts += check_model_dir(dir, data_cmp, failures);
  for (const auto& d : data_cmp.differences()) failures.push_back(d);

  for (const auto& f : failures) std::printf("DIFF %s\n", f.c_str());
  std::printf("crosscheck: %zu models (%zu facts), %zu data-file facts compared, %zu differences\n",
              dirs.size(), model_facts, data_cmp.checked_values(), failures.size());
  return failures.empty() ? 0 : 1;
}
