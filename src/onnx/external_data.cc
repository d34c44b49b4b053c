#include "onnx/external_data.h"

#include <climits>
#include <cstdlib>

namespace twinrt::onnx {
namespace {

// Parses a non-negative decimal integer; false on anything else (sign, spaces, overflow).
bool parse_size(const std::string& s, size_t* out) {
  if (s.empty() || s.size() > 19) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  *out = static_cast<size_t>(v);
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

Result<std::string> resolve_inside_base(const std::string& location, const std::string& base_dir) {
  TRY(check_relative_location(location));
  ASSIGN_OR_RETURN(std::string base, real_path(base_dir));
  ASSIGN_OR_RETURN(std::string target, real_path(base + "/" + location));
  std::string prefix = base == "/" ? base : base + "/";
  if (target.compare(0, prefix.size(), prefix) != 0)
    return invalid_model("external data location '" + location + "' resolves to '" + target +
                         "', outside the model's folder '" + base + "'");
  return target;
}

}  // namespace

Result<ExternalBytes> resolve_external_data(
    const std::vector<std::pair<std::string, std::string>>& entries, size_t expected_bytes,
    ReadContext& ctx) {
  std::string location;
  size_t offset = 0;
  size_t length = 0;
  bool has_length = false;
  for (const auto& [key, value] : entries) {
    if (key == "location") {
      location = value;
    } else if (key == "offset") {
      if (!parse_size(value, &offset))
        return invalid_model("external data offset '" + value + "' is not a non-negative integer");
    } else if (key == "length") {
      if (!parse_size(value, &length))
        return invalid_model("external data length '" + value + "' is not a non-negative integer");
      has_length = true;
    }
  }
  if (ctx.options.base_dir.empty())
    return invalid_model("tensor uses external data, but the model was not loaded from a " +
                         std::string("file (no folder to resolve it against)"));
  ASSIGN_OR_RETURN(std::string path, resolve_inside_base(location, ctx.options.base_dir));

  std::shared_ptr<MappedFile>& file = ctx.external_files[path];
  if (!file) {
    auto mapped = MappedFile::open(path);
    if (!mapped) {
      ctx.external_files.erase(path);
      return mapped.status();
    }
    file = std::move(mapped).value();
  }
  if (!has_length) length = expected_bytes;
  if (length != expected_bytes)
    return invalid_model("external data length " + std::to_string(length) + " does not match the " +
                         std::to_string(expected_bytes) + " bytes the tensor needs");
  if (offset > file->size() || length > file->size() - offset)
    return invalid_model("external data range [" + std::to_string(offset) + ", +" +
                         std::to_string(length) + ") lies outside '" + location + "' (" +
                         std::to_string(file->size()) + " bytes)");
  return ExternalBytes{file, offset, length};
}

}  // namespace twinrt::onnx
