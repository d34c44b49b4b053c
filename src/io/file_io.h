// Whole-file reads and writes with errors that name the file and the reason.
#pragma once

#include <string>
#include <string_view>

#include "twinrt/status.h"

namespace twinrt::io {

// Fails with kIoError when the path is missing, a directory, or unreadable.
Result<std::string> read_file_bytes(const std::string& path);
// Writes to `path.tmp` then renames, so a failed write never leaves a half file behind.
Status write_file_bytes(const std::string& path, std::string_view bytes);

}  // namespace twinrt::io
