// Whole-file reads and writes with errors that name the file and the reason.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ir/resource_limits.h"
#include "twinrt/status.h"

namespace twinrt::io {

// Reads a regular file (see regular_file.h); kIoError when the path is missing, a
// directory, a FIFO, a device or unreadable. A file larger than limits.max_tensor_bytes
// or limits.max_memory_bytes (0: no limit) is refused before it is read.
Result<std::string> read_file_bytes(const std::string& path, const ResourceLimits& limits = {});

// Writes `bytes` to `path`:
//  - "-" is standard output;
//  - an absent path or a regular file: written to `path.tmp`, then renamed over `path`, so a
//    failed write never leaves a half file behind;
//  - anything else that exists (device, FIFO, symlink): opened and written in place, never
//    replaced (renaming over /dev/full or a symlink would destroy it).
Status write_file_bytes(const std::string& path, std::string_view bytes);

// The size of the file at `path` in bytes (symlinks followed), or -1 when it cannot be stat'ed.
int64_t file_size_or_minus_one(const std::string& path);

}  // namespace twinrt::io
