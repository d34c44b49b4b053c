// Checks against the resource limits (include/twinrt/limits.h). Inside twinrt a 0 in a
// ResourceLimits means "no limit" (beyond Tensor's own 2^40-byte cap); the public 0
// ("the default") is resolved by resolve_limits first.
#pragma once

#include <cstdint>
#include <string>

#include "twinrt/limits.h"
#include "twinrt/status.h"

namespace twinrt {

// Physical memory (native) or the WebAssembly heap's maximum.
uint64_t physical_memory_bytes();
// A quarter of physical memory in total, an eighth for one tensor (native); in WebAssembly
// the heap's maximum, half of it for one tensor.
ResourceLimits default_resource_limits();
// Each 0 in `requested` replaced by its default.
ResourceLimits resolve_limits(ResourceLimits requested);
// resolve_limits(resource_limits()): what sessions loaded now get.
ResourceLimits current_limits();

// "1073741824", "512M", "4G", "1.5G" (powers of 1024; K, M, G, T); 0 is refused.
Result<uint64_t> parse_byte_size(const std::string& text, const std::string& what);
// "1.5 GiB", "512 MiB", "100 bytes".
std::string format_bytes(uint64_t bytes);

// Whether `bytes` fit the largest tensor allowed, and `more` beside `used` the memory limit.
bool tensor_bytes_fit(uint64_t bytes, const ResourceLimits& limits);
bool memory_bytes_fit(uint64_t used, uint64_t more, const ResourceLimits& limits);
// kInvalidArgument (bad input: CLI exit code 2) naming `what` and the limit when `bytes`
// exceeds the largest tensor allowed.
Status check_tensor_bytes(uint64_t bytes, const std::string& what, const ResourceLimits& limits);
// The same when `used` + `more` exceeds the memory limit; `what` names the addition.
Status check_memory_bytes(uint64_t used, uint64_t more, const std::string& what, const ResourceLimits& limits);

}  // namespace twinrt
