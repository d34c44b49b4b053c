// NumPy has no bfloat16: ONNX's test data (1.12) and users store bfloat16 tensors as uint16
// bit patterns. Where a model declares bfloat16, such a tensor is read as those bits.
#pragma once

#include "ir/ir.h"
#include "twinrt/tensor.h"

namespace twinrt::io {

// `v` unchanged unless it is a uint16 tensor and `declared` is a bfloat16 tensor type.
Result<Value> uint16_as_bfloat16(Value v, const ir::TypeInfo& declared);

}  // namespace twinrt::io
