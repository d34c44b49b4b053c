// Summary statistics for printing a tensor in one line (`twinrt run`).
#pragma once

#include <cstdint>
#include <string>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::io {

struct TensorStats {
  int64_t count = 0;      // elements
  int64_t nan_count = 0;  // NaN elements, left out of min/max/mean
  bool has_values = false;  // false when every element is NaN or the tensor is empty
  double min = 0, max = 0, mean = 0;
};

// Numeric and bool tensors (float16/bfloat16 via float); not_implemented for strings
// and complex numbers.
Result<TensorStats> tensor_stats(const Tensor& t);

// "min=0 max=1 mean=0.5", "min=0 max=1 mean=0.5 nan=3", "empty", "all NaN (4)".
std::string format_stats(const TensorStats& s);

}  // namespace twinrt::io
