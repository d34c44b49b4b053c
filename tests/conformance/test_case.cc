#include "test_case.h"

#include <algorithm>
#include <cstdio>
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

struct Fnv1a {
  uint64_t h = 1469598103934665603ull;
  void mix(const void* p, size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  }
  template <class T> void mix_scalar(T v) { mix(&v, sizeof v); }
};

void mix_tensor(Fnv1a& f, const Tensor& t) {
  f.mix_scalar(static_cast<int>(t.dtype()));
  f.mix_scalar(t.shape().size());
  for (int64_t d : t.shape()) f.mix_scalar(d);
  if (t.dtype() != DataType::kString) { f.mix(t.raw(), t.nbytes()); return; }
  for (int64_t i = 0; i < t.numel(); ++i) {
    const std::string& s = t.data<std::string>()[i];
    f.mix_scalar(s.size());
    f.mix(s.data(), s.size());
  }
}

void mix_value(Fnv1a& f, const Value& v) {
  f.mix_scalar(static_cast<int>(v.kind));
  if (v.is_tensor()) mix_tensor(f, v.tensor);
  if (v.is_sequence()) {
    f.mix_scalar(v.sequence.size());
    for (const Tensor& t : v.sequence) mix_tensor(f, t);
  }
  if (v.is_optional()) {
    f.mix_scalar(v.optional != nullptr);
    if (v.optional) mix_value(f, *v.optional);
  }
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
    // Random outputs differ run to run by design: identity is not asked of them.
    return {m.empty(), m.empty() ? "" : where + m, "random"};
  }
  for (size_t i = 0; i < expected->size(); ++i) {
    std::string m = compare_values(actual[i], (*expected)[i], Tolerance{});
    if (!m.empty()) return {false, where + "output '" + plan.outputs[i].name + "': " + m};
  }
  return {true, "", digest_values(actual)};
}

}  // namespace

std::string digest_values(const std::vector<Value>& values) {
  Fnv1a f;
  for (const Value& v : values) mix_value(f, v);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(f.h));
  return hex;
}

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
  std::string digests;
  for (const auto& set : sets) {
    Outcome o = run_data_set(**session, name, set);
    if (!o.passed) return o;
    digests += (digests.empty() ? "" : ",") + o.digest;
  }
  return {true, "", digests};
}

}  // namespace twinrt::conformance
