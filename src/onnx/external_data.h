// Tensor bytes stored outside the model (TensorProto.data_location = EXTERNAL).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "onnx/reader_context.h"

namespace twinrt::onnx {

// A byte range inside a mapped external file.
struct ExternalBytes {
  std::shared_ptr<MappedFile> file;
  size_t offset = 0;
  size_t length = 0;
};

// Resolves the `external_data` entries (location, offset, length) of a tensor that needs
// `expected_bytes` bytes. The location must be a relative path that stays inside
// ctx.options.base_dir after resolving '..' and symlinks; offset and length must lie
// inside the file.
Result<ExternalBytes> resolve_external_data(
    const std::vector<std::pair<std::string, std::string>>& entries, size_t expected_bytes,
    ReadContext& ctx);

}  // namespace twinrt::onnx
