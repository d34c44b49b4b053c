#include "ir/resource_limits.h"

#include <cmath>
#include <cstdio>
#include <mutex>

#ifdef __EMSCRIPTEN__
#include <emscripten/heap.h>
#else
#include <unistd.h>
#endif

namespace twinrt {

uint64_t physical_memory_bytes() {
#ifdef __EMSCRIPTEN__
  return emscripten_get_heap_max();
#else
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return uint64_t{8} << 30;  // unknown: assume a small machine
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
#endif
}

ResourceLimits default_resource_limits() {
  const uint64_t physical = physical_memory_bytes();
#ifdef __EMSCRIPTEN__
  // The heap is the limit in WebAssembly; malloc failures are errors there, not aborts.
  return {physical / 2, physical};
#else
  // Leaves room for the rest of the machine (and for ONNX Runtime, when comparing).
  return {physical / 8, physical / 4};
#endif
}

namespace {

std::mutex limits_mutex;
ResourceLimits process_limits;

}  // namespace

void set_resource_limits(const ResourceLimits& limits) {
  std::lock_guard<std::mutex> lock(limits_mutex);
  process_limits = limits;
}

ResourceLimits resource_limits() {
  std::lock_guard<std::mutex> lock(limits_mutex);
  return process_limits;
}

ResourceLimits current_limits() { return resolve_limits(resource_limits()); }

ResourceLimits resolve_limits(ResourceLimits requested) {
  const ResourceLimits defaults = default_resource_limits();
  if (requested.max_tensor_bytes == 0) requested.max_tensor_bytes = defaults.max_tensor_bytes;
  if (requested.max_memory_bytes == 0) requested.max_memory_bytes = defaults.max_memory_bytes;
  return requested;
}

Result<uint64_t> parse_byte_size(const std::string& text, const std::string& what) {
  const auto refuse = [&] {
    return invalid_argument(what + " must be a positive number of bytes, optionally with K, M, G or T (powers of "
                            "1024), got '" + text + "'");
  };
  double value = 0;
  int used = 0;
  if (text.empty() || text[0] == '-' || text[0] == '+' ||
      std::sscanf(text.c_str(), "%lf%n", &value, &used) != 1 || !std::isfinite(value))
    return refuse();
  std::string suffix = text.substr(static_cast<size_t>(used));
  if (!suffix.empty() && (suffix.back() == 'B' || suffix.back() == 'b')) suffix.pop_back();
  double scale = 1;
  if (suffix == "K" || suffix == "k") scale = 0x1p10;
  else if (suffix == "M" || suffix == "m") scale = 0x1p20;
  else if (suffix == "G" || suffix == "g") scale = 0x1p30;
  else if (suffix == "T" || suffix == "t") scale = 0x1p40;
  else if (!suffix.empty()) return refuse();
  const double bytes = std::floor(value * scale);
  if (bytes < 1 || bytes >= 0x1p63) return refuse();
  return static_cast<uint64_t>(bytes);
}

std::string format_bytes(uint64_t bytes) {
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  double v = static_cast<double>(bytes);
  int unit = -1;
  while (v >= 1024 && unit < 3) { v /= 1024; ++unit; }
  char text[32];
  std::snprintf(text, sizeof text, "%.3g %s", v, units[unit]);
  return text;
}

bool tensor_bytes_fit(uint64_t bytes, const ResourceLimits& limits) {
  return limits.max_tensor_bytes == 0 || bytes <= limits.max_tensor_bytes;
}

bool memory_bytes_fit(uint64_t used, uint64_t more, const ResourceLimits& limits) {
  return limits.max_memory_bytes == 0 || (more <= limits.max_memory_bytes && used <= limits.max_memory_bytes - more);
}

Status check_tensor_bytes(uint64_t bytes, const std::string& what, const ResourceLimits& limits) {
  if (tensor_bytes_fit(bytes, limits)) return Status::ok();
  return invalid_argument(what + " needs " + format_bytes(bytes) + ", more than the largest tensor allowed (" +
                        format_bytes(limits.max_tensor_bytes) + "; --max-tensor-bytes)");
}

Status check_memory_bytes(uint64_t used, uint64_t more, const std::string& what, const ResourceLimits& limits) {
  if (memory_bytes_fit(used, more, limits)) return Status::ok();
  const std::string in_use = used ? " more with " + format_bytes(used) + " in use" : "";
  return invalid_argument(what + " needs " + format_bytes(more) + in_use + ", beyond the memory limit (" +
                          format_bytes(limits.max_memory_bytes) + "; --max-memory)");
}

}  // namespace twinrt
