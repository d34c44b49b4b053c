#include "cli/input_binding.h"

#include <filesystem>
#include <optional>

#include "cli/session_flags.h"
#include "io/declared_bfloat16.h"
#include "io/file_io.h"
#include "io/npy.h"
#include "io/random_tensor.h"
#include "onnx/loader.h"
#include "runtime/session_impl.h"

namespace twinrt::cli {
namespace {

namespace fs = std::filesystem;

bool has_suffix(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Status check_tensor(const Tensor& t, const ir::TypeInfo& type, const std::string& what) {
  if (type.elem != DataType::kUndefined && t.dtype() != type.elem)
    return invalid_argument(what + ": expected dtype " + dtype_name(type.elem) + ", got " + dtype_name(t.dtype()));
  if (!type.shape) return Status::ok();
  const ir::Shape& want = *type.shape;
  bool ok = static_cast<size_t>(t.rank()) == want.size();
  for (size_t i = 0; ok && i < want.size(); ++i) ok = !want[i].known() || want[i].value == t.shape()[i];
  if (!ok)
    return invalid_argument(what + ": expected shape " + ir::shape_to_string(want) + ", got " +
                            shape_to_string(t.shape()));
  return Status::ok();
}

// Checks a loaded value against the declaration; a bare tensor given for an optional
// input is wrapped.
Result<Value> conform(Value loaded, const ir::TypeInfo& type, const std::string& what) {
  using Kind = ir::TypeInfo::Kind;
  ASSIGN_OR_RETURN(Value v, io::uint16_as_bfloat16(std::move(loaded), type));
  if (type.kind == Kind::kOptional && v.is_tensor())
    return Value::of_optional(std::make_shared<const Value>(std::move(v)));
  if (type.kind == Kind::kTensor && !v.is_tensor()) return invalid_argument(what + ": expected a tensor");
  if (type.kind == Kind::kSequence && !v.is_sequence())
    return invalid_argument(what + ": expected a sequence (give a SequenceProto .pb file)");
  if (v.is_tensor() && type.kind == Kind::kTensor) TRY(check_tensor(v.tensor, type, what));
  return v;
}

std::string join_input_names(const std::vector<IoInfo>& inputs) {
  std::string s;
  for (const IoInfo& in : inputs) s += (s.empty() ? "" : ", ") + in.name;
  return s.empty() ? "none" : s;
}

// Binds DIR/input_<i>.pb to input i; inputs without a file stay unbound.
Status bind_test_data(const std::string& dir, const std::vector<ir::ValueInfo>& decls,
                      std::vector<std::optional<BoundInput>>& bound) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return io_error("--test-data: '" + dir + "' is not a readable directory");
  fs::directory_iterator it(dir, ec);
  if (ec) return io_error("--test-data: cannot read '" + dir + "': " + ec.message());
  for (size_t i = 0; i < decls.size(); ++i) {
    const std::string path = (fs::path(dir) / ("input_" + std::to_string(i) + ".pb")).string();
    if (!fs::exists(path, ec)) continue;
    ASSIGN_OR_RETURN(Value v, load_input_file(path, decls[i]));
    bound[i] = BoundInput{decls[i].name, std::move(v), path};
  }
  const std::string extra = (fs::path(dir) / ("input_" + std::to_string(decls.size()) + ".pb")).string();
  if (fs::exists(extra, ec))
    return invalid_argument("--test-data: '" + extra + "' has no matching input: the model has " +
                            std::to_string(decls.size()) + " inputs");
  return Status::ok();
}

Status bind_input_flags(const std::vector<std::string>& args, const Session& session,
                        const std::vector<ir::ValueInfo>& decls, std::vector<std::optional<BoundInput>>& bound) {
  std::vector<bool> given(decls.size(), false);
  for (const std::string& arg : args) {
    ASSIGN_OR_RETURN(auto assignment, split_assignment(arg, "--input"));
    const auto& [name, path] = assignment;
    size_t index = decls.size();
    for (size_t i = 0; i < decls.size(); ++i)
      if (decls[i].name == name) index = i;
    if (index == decls.size())
      return invalid_argument("--input: the model has no input named '" + name +
                              "' (inputs: " + join_input_names(session.inputs()) + ")");
    if (given[index]) return invalid_argument("--input: input '" + name + "' is given twice");
    given[index] = true;
    ASSIGN_OR_RETURN(Value v, load_input_file(path, decls[index]));
    bound[index] = BoundInput{name, std::move(v), path};
  }
  return Status::ok();
}

}  // namespace

void add_input_flags(CLI::App* command, InputFlags& flags, bool with_test_data) {
  command->add_option("--input", flags.inputs, "NAME=FILE: input value from a .npy or ONNX .pb file (repeatable)");
  if (with_test_data)
    command->add_option("--test-data", flags.test_data_dir,
                        "folder with input_<i>.pb files for the graph inputs, in order");
  command->add_option("--seed", flags.seed, "seed for the random values of inputs not given")
      ->capture_default_str();
}

Result<Value> load_input_file(const std::string& path, const ir::ValueInfo& decl) {
  const std::string what = "input '" + decl.name + "' from '" + path + "'";
  if (has_suffix(path, ".npy")) {
    ASSIGN_OR_RETURN(Tensor t, io::read_npy_file(path));
    return conform(Value::of(std::move(t)), decl.type, what);
  }
  if (has_suffix(path, ".pb")) {
    ASSIGN_OR_RETURN(std::string bytes, io::read_file_bytes(path));
    auto v = onnx::parse_value(bytes.data(), bytes.size(), decl.type);
    if (!v) return v.status().with_context(what + ": ");
    return conform(std::move(v).value(), decl.type, what);
  }
  return invalid_argument(what + ": unknown file type (expected .npy or an ONNX .pb)");
}

Result<Value> random_value(const ir::TypeInfo& type, const std::map<std::string, int64_t>& dims,
                           uint64_t seed, const std::string& input_name) {
  using Kind = ir::TypeInfo::Kind;
  const std::string give_it = "; give it with --input " + input_name + "=FILE";
  switch (type.kind) {
    case Kind::kTensor: {
      if (!type.shape) return invalid_argument("input '" + input_name + "' has no declared shape" + give_it);
      std::vector<int64_t> shape;
      for (const ir::Dim& d : *type.shape) {
        auto it = dims.find(d.symbol);
        shape.push_back(d.known() ? d.value : !d.symbol.empty() && it != dims.end() ? it->second : 1);
      }
      auto t = io::random_tensor(type.elem, shape, seed);
      if (!t) return t.status().with_context("input '" + input_name + "': ");
      return Value::of(std::move(t).value());
    }
    case Kind::kOptional:
    case Kind::kSequence: {
      if (!type.inner) return invalid_argument("input '" + input_name + "' has no element type" + give_it);
      ASSIGN_OR_RETURN(Value inner, random_value(*type.inner, dims, seed, input_name));
      if (type.kind == Kind::kOptional) return Value::of_optional(std::make_shared<const Value>(std::move(inner)));
      if (!inner.is_tensor()) return not_implemented("input '" + input_name + "': nested sequences" + give_it);
      const DataType elem = inner.tensor.dtype();
      return Value::of_sequence({std::move(inner.tensor)}, elem);
    }
    default:
      return not_implemented("input '" + input_name + "' of type " + ir::type_to_string(type) +
                             " cannot be generated" + give_it);
  }
}

Result<std::vector<BoundInput>> bind_inputs(const Session& session, const InputFlags& flags) {
  const std::vector<ir::ValueInfo>& decls = session.impl().plan().inputs;
  std::vector<std::optional<BoundInput>> bound(decls.size());
  if (!flags.test_data_dir.empty()) TRY(bind_test_data(flags.test_data_dir, decls, bound));
  TRY(bind_input_flags(flags.inputs, session, decls, bound));
  std::vector<BoundInput> result;
  for (size_t i = 0; i < decls.size(); ++i) {
    if (bound[i]) {
      result.push_back(std::move(*bound[i]));
      continue;
    }
    ASSIGN_OR_RETURN(Value v, random_value(decls[i].type, session.options().dim_overrides,
                                           io::derive_seed(flags.seed, i), decls[i].name));
    result.push_back(BoundInput{decls[i].name, std::move(v), "random (seed " + std::to_string(flags.seed) + ")"});
  }
  return result;
}

std::map<std::string, Value> as_feeds(const std::vector<BoundInput>& inputs) {
  std::map<std::string, Value> feeds;
  for (const BoundInput& in : inputs) feeds[in.name] = in.value;
  return feeds;
}

}  // namespace twinrt::cli
