#include "onnx/external_data.h"

#include <climits>
#include <cstdlib>

#include "ir/bool_values.h"

namespace twinrt::onnx {
namespace {

// Parses a non-negative decimal integer; false on anything else (sign, spaces, overflow).
bool parse_size(const std::string& s, uint64_t* out) {
  if (s.empty() || s.size() > 19) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  *out = v;
  return true;
}

Result<std::string> real_path(const std::string& path) {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (!resolved) return io_error("cannot resolve external data file '" + path + "'");
  std::string out(resolved);
  std::free(resolved);
  return out;
}

// Lexical checks first, so an escape is reported as such even when the target is missing.
Status check_relative_location(const std::string& location) {
  if (location.empty()) return invalid_model("external data location is empty");
  if (location.find('\0') != std::string::npos)
    return invalid_model("external data location contains a NUL byte");
  if (location[0] == '/' || location[0] == '\\' ||
      (location.size() > 1 && location[1] == ':'))
    return invalid_model("external data location '" + location + "' is absolute; it must be " +
                         "relative to the model's folder");
  size_t start = 0;
  while (start <= location.size()) {
    size_t end = location.find_first_of("/\\", start);
    if (end == std::string::npos) end = location.size();
    if (location.compare(start, end - start, "..") == 0)
      return invalid_model("external data location '" + location +
                           "' uses '..' to leave the model's folder");
    start = end + 1;
  }
  return Status::ok();
}

struct ExternalRef {
  std::string location;
  uint64_t offset = 0;
  uint64_t length = 0;
  bool has_length = false;
};

Result<ExternalRef> parse_entries(const std::vector<std::pair<std::string, std::string>>& entries) {
  ExternalRef ref;
  for (const auto& [key, value] : entries) {
    if (key == "location") {
      ref.location = value;
    } else if (key == "offset") {
      if (!parse_size(value, &ref.offset))
        return invalid_model("external data offset '" + value + "' is not a non-negative integer");
    } else if (key == "length") {
      if (!parse_size(value, &ref.length))
        return invalid_model("external data length '" + value + "' is not a non-negative integer");
      ref.has_length = true;
    }
  }
  return ref;
}

// The opened file for `path`, opened once per load and shared by the tensors in it.
Result<const io::RegularFile*> open_cached(const std::string& path, ReadContext& ctx) {
  auto it = ctx.external_files.find(path);
  if (it != ctx.external_files.end()) return &it->second;
  ASSIGN_OR_RETURN(io::RegularFile file, io::RegularFile::open(path, "external data file"));
  return &ctx.external_files.emplace(path, std::move(file)).first->second;
}

}  // namespace

Result<std::string> resolve_external_location(const std::string& location, const std::string& base_dir) {
  TRY(check_relative_location(location));
  ASSIGN_OR_RETURN(std::string base, real_path(base_dir));
  ASSIGN_OR_RETURN(std::string target, real_path(base + "/" + location));
  std::string prefix = base == "/" ? base : base + "/";
  if (target.compare(0, prefix.size(), prefix) != 0)
    return invalid_model("external data location '" + location + "' resolves to '" + target +
                         "', outside the model's folder '" + base + "'");
  return target;
}

Result<Tensor> read_external_tensor(const std::vector<std::pair<std::string, std::string>>& entries,
                                    DataType dtype, const std::vector<int64_t>& dims, size_t nbytes,
                                    ReadContext& ctx) {
  ASSIGN_OR_RETURN(ExternalRef ref, parse_entries(entries));
  if (ctx.options.base_dir.empty())
    return invalid_model("tensor uses external data, but the model was not loaded from a " +
                         std::string("file (no folder to resolve it against)"));
  ASSIGN_OR_RETURN(std::string path, resolve_external_location(ref.location, ctx.options.base_dir));
  ASSIGN_OR_RETURN(const io::RegularFile* file, open_cached(path, ctx));
  if (ctx.external_uses) {
    bool seen = false;
    for (const auto& use : *ctx.external_uses) seen |= use.path == path;
    if (!seen) ctx.external_uses->push_back(ExternalFileUse{ref.location, path});
  }
  if (!ref.has_length) ref.length = nbytes;
  if (ref.length != nbytes)
    return invalid_model("external data length " + std::to_string(ref.length) + " does not match the " +
                         std::to_string(nbytes) + " bytes the tensor needs");
  if (ref.offset > file->size() || ref.length > file->size() - ref.offset)
    return invalid_model("external data range [" + std::to_string(ref.offset) + ", +" +
                         std::to_string(ref.length) + ") lies outside '" + ref.location + "' (" +
                         std::to_string(file->size()) + " bytes)");
  ASSIGN_OR_RETURN(Tensor t, Tensor::create(dtype, dims));
  TRY(file->read_at(ref.offset, t.raw(), nbytes));
  if (dtype == DataType::kBool) ir::normalise_bool_bytes(t.raw(), nbytes);
  return t;
}

}  // namespace twinrt::onnx
