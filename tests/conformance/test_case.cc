#include "test_case.h"

#include <algorithm>
#include <filesystem>

#include "compare.h"
#include "io/declared_bfloat16.h"
#include "onnx/loader.h"
#include "runtime/session_impl.h"

namespace fs = std::filesystem;

namespace twinrt::conformance {
namespace {

// Reads `<dir>/<prefix>_<i>.pb` for i = 0.. while the files exist, typed by `decls`.
Result<std::vector<Value>> read_values(const fs::path& dir, const std::string& prefix,
                                       const std::vector<ir::ValueInfo>& decls) {
  std::vector<Value> values;
  for (size_t i = 0;; ++i) {
    fs::path file = dir / (prefix + "_" + std::to_string(i) + ".pb");
    if (!fs::exists(file)) break;
    if (i >= decls.size())
      return invalid_argument(file.string() + ": the model has only " + std::to_string(decls.size()) + " " +
                              prefix + "s");
    ASSIGN_OR_RETURN(std::string bytes, onnx::read_file(file.string()));
    auto v = onnx::parse_value(bytes.data(), bytes.size(), decls[i].type);
    if (!v) return v.status().with_context(file.string() + ": ");
    ASSIGN_OR_RETURN(Value typed, io::uint16_as_bfloat16(std::move(v).value(), decls[i].type));
    values.push_back(std::move(typed));
  }
  return values;
}

Outcome run_data_set(const Session& session, const std::string& test_name, const fs::path& set) {
  const Subgraph& plan = session.impl().plan();
  auto inputs = read_values(set, "input", plan.inputs);
  if (!inputs) return {false, inputs.status().message()};
  auto expected = read_values(set, "output", plan.outputs);
  if (!expected) return {false, expected.status().message()};

  std::map<std::string, Value> feeds;
  for (size_t i = 0; i < inputs->size(); ++i) feeds[plan.inputs[i].name] = (*inputs)[i];
  auto result = session.run(feeds);
  if (!result) return {false, result.status().message()};

  std::vector<Value> actual;
  for (const auto& out : plan.outputs) actual.push_back(result->at(out.name));
  actual.resize(expected->size());
  const std::string where = set.filename().string() + ": ";
  if (is_random_test(test_name)) {
    std::string m = check_random_outputs(test_name, *inputs, actual, *expected);
    return {m.empty(), m.empty() ? "" : where + m};
  }
  for (size_t i = 0; i < expected->size(); ++i) {
    std::string m = compare_values(actual[i], (*expected)[i], Tolerance{});
    if (!m.empty()) return {false, where + "output '" + plan.outputs[i].name + "': " + m};
  }
  return {true, ""};
}

}  // namespace

Outcome run_test_case(const std::string& dir, const SessionOptions& options) {
  auto session = Session::load((fs::path(dir) / "model.onnx").string(), options);
  if (!session) return {false, session.status().message()};
  std::vector<fs::path> sets;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0) sets.push_back(e.path());
  if (ec) return {false, "cannot list " + dir + ": " + ec.message()};
  if (sets.empty()) return {false, "no test_data_set_* folder"};
  std::sort(sets.begin(), sets.end());
  const std::string name = fs::path(dir).filename().string();
  for (const auto& set : sets) {
    Outcome o = run_data_set(**session, name, set);
    if (!o.passed) return o;
  }
  return {true, ""};
}

}  // namespace twinrt::conformance
