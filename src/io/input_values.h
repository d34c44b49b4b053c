// Values for a model's inputs from files or random numbers, checked against the input's
// declaration: used by `twinrt run`/`bench` (src/cli/input_binding.h) and by the parity
// toolkit's input sets (src/parity/inputs.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "io/random_tensor.h"
#include "ir/ir.h"
#include "ir/resource_limits.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::io {

// Checks a tensor's dtype and the declared fixed dims; `what` starts the message
// ("input 'x' from 'a.npy'").
Status check_declared_tensor(const Tensor& t, const ir::TypeInfo& type, const std::string& what);

// Checks a loaded value against the declaration: uint16 data declared bfloat16 is read as
// bfloat16 bits, a bare tensor given for an optional input is wrapped.
Result<Value> conform_to_declaration(Value loaded, const ir::TypeInfo& type, const std::string& what);

// Reads a value file for an input declared as `decl`: .npy, or .pb parsed as the
// declared kind (TensorProto, SequenceProto, OptionalProto). Checks dtype and fixed dims.
// A .npy file beyond limits.max_tensor_bytes, a .pb beyond limits.max_memory_bytes, is
// refused before it is read.
Result<Value> load_input_file(const std::string& path, const ir::ValueInfo& decl,
                              const ResourceLimits& limits = current_limits());

// An ONNX test-data folder: DIR/input_<i>.pb for declared input i. Inputs without a file
// stay empty; a file beyond the last input is an error.
struct TestDataValue {
  Value value;
  std::string path;
};
Result<std::vector<std::optional<TestDataValue>>> load_test_data_folder(
    const std::string& dir, const std::vector<ir::ValueInfo>& decls,
    const ResourceLimits& limits = current_limits());

// Random values for `type`: symbolic dims from `dims` (default 1), unknown dims 1;
// sequences get one element, optionals hold a value. `range` as in random_tensor.
Result<Value> random_value(const ir::TypeInfo& type, const std::map<std::string, int64_t>& dims,
                           uint64_t seed, const std::string& input_name,
                           std::optional<ValueRange> range = std::nullopt);

}  // namespace twinrt::io
