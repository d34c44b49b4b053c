// GraphProto, NodeProto and AttributeProto → IR. Graphs nest inside attributes (If, Loop,
// Scan bodies), so these readers call one another; the nesting depth is capped.
#pragma once

#include <cstdint>
#include <memory>

#include "ir/ir.h"
#include "onnx/reader_context.h"

namespace twinrt::onnx {

Result<std::shared_ptr<ir::Graph>> read_graph(const uint8_t* data, size_t size, ReadContext& ctx);
Result<ir::Node> read_node(const uint8_t* data, size_t size, ReadContext& ctx);
Result<ir::Attribute> read_attribute(const uint8_t* data, size_t size, ReadContext& ctx);

}  // namespace twinrt::onnx
