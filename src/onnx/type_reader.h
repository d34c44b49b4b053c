// TypeProto → ir::TypeInfo and ValueInfoProto → ir::ValueInfo.
#pragma once

#include <cstdint>

#include "ir/ir.h"
#include "onnx/reader_context.h"

namespace twinrt::onnx {

Result<ir::TypeInfo> read_type(const uint8_t* data, size_t size, ReadContext& ctx);
Result<ir::ValueInfo> read_value_info(const uint8_t* data, size_t size, ReadContext& ctx);

}  // namespace twinrt::onnx
