// Joining per-item tensors into one batch along axis 0 and splitting a batch back.
#pragma once

#include <vector>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::pipeline {

// Every tensor must have the same dtype (not string) and the same dims after the first.
Result<Tensor> concat_batch(const std::vector<Tensor>& parts);
// Splits along axis 0 into parts of `sizes` rows; their sum must equal dim 0.
Result<std::vector<Tensor>> split_batch(const Tensor& batch, const std::vector<int64_t>& sizes);

}  // namespace twinrt::pipeline
