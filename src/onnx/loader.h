// Reads ONNX files into the IR with twinrt's own bounds-checked protobuf wire reader.
// Every length, offset and count read from a file is checked; a malformed file gives an
// error naming the field (and node, where there is one), never a crash.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "ir/resource_limits.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::onnx {

struct LoadOptions {
  // Folder that external-data `location`s are relative to. Empty: external data is refused.
  std::string base_dir;
  // Every tensor read (initializers, Constant values, densified sparse tensors, external
  // data) is checked against these before it is allocated; the total counts all of them.
  ResourceLimits limits;
};

// An external-data file a loaded model uses: its `location` as written in the model and the
// resolved path inside the model's folder.
struct ExternalFileUse {
  std::string location;
  std::string path;
};

// Reads the file into memory (initializers view that copy, never the file, so later changes
// to the file cannot reach the model). External data is resolved next to the model, may
// not escape its folder, and must be regular files. `external_files` (optional) receives
// the external-data files used, in first-use order. The file itself may not exceed
// limits.max_memory_bytes; the tensors are checked as in LoadOptions::limits.
Result<ir::Model> load_model_file(const std::string& path,
                                  const ResourceLimits& limits = current_limits(),
                                  std::vector<ExternalFileUse>* external_files = nullptr);

// Parses a model held in memory. `keepalive` (optional) owns `data`; when given,
// initializers may point into it instead of being copied.
Result<ir::Model> load_model_bytes(const void* data, size_t size, const LoadOptions& options,
                                   std::shared_ptr<Storage> keepalive = nullptr);

// A serialized TensorProto (e.g. an ONNX test-data input_0.pb).
Result<Tensor> parse_tensor(const void* data, size_t size);

// A test-data file: TensorProto, SequenceProto or OptionalProto. `expected` (from the
// model's input/output type) says which message the bytes hold, since the files carry no tag.
Result<Value> parse_value(const void* data, size_t size, const ir::TypeInfo& expected);

// Reads a whole file into memory with a clear error when it is missing or unreadable.
Result<std::string> read_file(const std::string& path);

// Serializes a tensor as a TensorProto (raw_data), for tools and tests.
std::string serialize_tensor(const Tensor& t, const std::string& name);

}  // namespace twinrt::onnx
