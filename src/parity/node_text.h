// Short text for a node's attributes in reports: "kernel_shape=[3,3] strides=[2,2] group=1".
#pragma once

#include <string>

#include "ir/ir.h"

namespace twinrt::parity {

// Subgraphs and tensors are shown by kind only; long lists are cut after 8 items, and the
// whole text after `max_chars`.
std::string attributes_text(const ir::Node& node, size_t max_chars = 100);

}  // namespace twinrt::parity
