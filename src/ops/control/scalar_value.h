// Reading and making the one-element tensors that steer control flow and index
// sequences (conditions, trip counts, positions).
#pragma once

#include <cstdint>
#include <string>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt {

// A bool tensor with exactly one element (any rank); `what` names it in errors.
Result<bool> read_bool_scalar(const Value* v, const std::string& what);
// An int32 or int64 tensor with exactly one element.
Result<int64_t> read_int_scalar(const Value* v, const std::string& what);

Result<Tensor> make_scalar_int64(int64_t v);
Result<Tensor> make_scalar_bool(bool v);

}  // namespace twinrt
