// TensorProto and SparseTensorProto → Tensor.
#pragma once

#include <cstdint>
#include <string>

#include <utility>

#include "onnx/reader_context.h"
#include "onnx/wire.h"

namespace twinrt::onnx {

// Reads a TensorProto. `name` (optional) receives TensorProto.name. Raw data is viewed in
// place when ctx.keepalive owns it and its alignment allows; otherwise copied.
Result<Tensor> read_tensor(const uint8_t* data, size_t size, ReadContext& ctx,
                           std::string* name = nullptr);

// Reads a SparseTensorProto and densifies it (zeros where no value is given). `name`
// receives the name of its `values` tensor, which is the sparse tensor's name.
Result<Tensor> read_sparse_tensor(const uint8_t* data, size_t size, ReadContext& ctx,
                                  std::string* name = nullptr);

// The bytes a TensorProto (or, with `sparse`, a SparseTensorProto once densified) declares
// from its dims and data type alone, without reading its data; 0 when a field is
// malformed (reading the tensor reports it), saturating at UINT64_MAX.
uint64_t declared_tensor_bytes(const uint8_t* data, size_t size, bool sparse);

// Reads a StringStringEntryProto (key, value) held in field `f`.
Result<std::pair<std::string, std::string>> read_string_entry(const wire::Field& f, const char* name);

}  // namespace twinrt::onnx
