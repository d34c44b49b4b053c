// Tensor bytes stored outside the model (TensorProto.data_location = EXTERNAL).
//
// One resolver for every reader of external data (the loader, and through it `inspect`):
// a location must be relative, contain no '..' component, and resolve — after symlinks —
// to a regular file inside the model's folder. Only the byte range a tensor uses is read,
// into memory the tensor owns; the file is never mapped.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "onnx/reader_context.h"

namespace twinrt::onnx {

// The absolute, symlink-free path of `location` inside `base_dir`, or an error saying why
// it is refused (absolute, '..', escapes through a symlink, missing).
Result<std::string> resolve_external_location(const std::string& location, const std::string& base_dir);

// Reads the `external_data` entries (location, offset, length) of a tensor of `dtype` and
// `dims` that needs `nbytes` bytes. Bool bytes are normalised to 0/1.
Result<Tensor> read_external_tensor(const std::vector<std::pair<std::string, std::string>>& entries,
                                    DataType dtype, const std::vector<int64_t>& dims, size_t nbytes,
                                    ReadContext& ctx);

}  // namespace twinrt::onnx
