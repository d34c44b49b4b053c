// Writes the IR back as ONNX protobuf, so tools can rewrite models (e.g. the parity
// toolkit exposing intermediate values as graph outputs). Sparse initializers were
// densified on load and are written as dense initializers.
#pragma once

#include <string>

#include "ir/ir.h"
#include "twinrt/status.h"

namespace twinrt::onnx {

// A serialized ModelProto. Fails only on tensors that cannot be encoded (undefined dtype).
Result<std::string> write_model(const ir::Model& model);

// Writes the model to `path` (replacing it).
Status write_model_file(const ir::Model& model, const std::string& path);

}  // namespace twinrt::onnx
