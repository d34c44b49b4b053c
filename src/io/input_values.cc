#include "io/input_values.h"

#include <filesystem>

#include "io/declared_bfloat16.h"
#include "io/file_io.h"
#include "io/npy.h"
#include "onnx/loader.h"

namespace twinrt::io {
namespace {

namespace fs = std::filesystem;

bool has_suffix(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// i for a file named input_<i>.pb (decimal digits only).
std::optional<size_t> test_data_input_index(const std::string& name) {
  const std::string prefix = "input_", suffix = ".pb";
  if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
      !has_suffix(name, suffix))
    return std::nullopt;
  const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return static_cast<size_t>(std::stoul(digits));
}

}  // namespace

Status check_declared_tensor(const Tensor& t, const ir::TypeInfo& type, const std::string& what) {
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

Result<Value> conform_to_declaration(Value loaded, const ir::TypeInfo& type, const std::string& what) {
  using Kind = ir::TypeInfo::Kind;
  ASSIGN_OR_RETURN(Value v, uint16_as_bfloat16(std::move(loaded), type));
  if (type.kind == Kind::kOptional && v.is_tensor())
    return Value::of_optional(std::make_shared<const Value>(std::move(v)));
  if (type.kind == Kind::kTensor && !v.is_tensor()) return invalid_argument(what + ": expected a tensor");
  if (type.kind == Kind::kSequence && !v.is_sequence())
    return invalid_argument(what + ": expected a sequence (give a SequenceProto .pb file)");
  if (v.is_tensor() && type.kind == Kind::kTensor) TRY(check_declared_tensor(v.tensor, type, what));
  return v;
}

Result<Value> load_input_file(const std::string& path, const ir::ValueInfo& decl, const ResourceLimits& limits) {
  const std::string what = "input '" + decl.name + "' from '" + path + "'";
  if (has_suffix(path, ".npy")) {
    ASSIGN_OR_RETURN(Tensor t, read_npy_file(path, limits));
    return conform_to_declaration(Value::of(std::move(t)), decl.type, what);
  }
  if (has_suffix(path, ".pb")) {
    ASSIGN_OR_RETURN(std::string bytes, read_file_bytes(path, {0, limits.max_memory_bytes}));
    auto v = onnx::parse_value(bytes.data(), bytes.size(), decl.type);
    if (!v) return v.status().with_context(what + ": ");
    return conform_to_declaration(std::move(v).value(), decl.type, what);
  }
  return invalid_argument(what + ": unknown file type (expected .npy or an ONNX .pb)");
}

Result<std::vector<std::optional<TestDataValue>>> load_test_data_folder(
    const std::string& dir, const std::vector<ir::ValueInfo>& decls, const ResourceLimits& limits) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return io_error("'" + dir + "' is not a readable directory");
  fs::directory_iterator it(dir, ec);
  if (ec) return io_error("cannot read '" + dir + "': " + ec.message());
  std::vector<std::optional<TestDataValue>> values(decls.size());
  for (size_t i = 0; i < decls.size(); ++i) {
    const std::string path = (fs::path(dir) / ("input_" + std::to_string(i) + ".pb")).string();
    if (!fs::exists(path, ec)) continue;
    ASSIGN_OR_RETURN(Value v, load_input_file(path, decls[i], limits));
    values[i] = TestDataValue{std::move(v), path};
  }
  for (const fs::directory_entry& entry : it) {
    std::optional<size_t> index = test_data_input_index(entry.path().filename().string());
    if (index && *index >= decls.size())
      return invalid_argument("'" + entry.path().string() + "' has no matching input: the model has " +
                              std::to_string(decls.size()) + " inputs");
  }
  return values;
}

Result<Value> random_value(const ir::TypeInfo& type, const std::map<std::string, int64_t>& dims,
                           uint64_t seed, const std::string& input_name, std::optional<ValueRange> range) {
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
      auto t = random_tensor(type.elem, shape, seed, range);
      if (!t) return t.status().with_context("input '" + input_name + "': ");
      return Value::of(std::move(t).value());
    }
    case Kind::kOptional:
    case Kind::kSequence: {
      if (!type.inner) return invalid_argument("input '" + input_name + "' has no element type" + give_it);
      ASSIGN_OR_RETURN(Value inner, random_value(*type.inner, dims, seed, input_name, range));
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

}  // namespace twinrt::io
