// numpy matmul semantics shared by MatMul, MatMulInteger and QLinearMatMul: 1-D operands
// are promoted to matrices (and the added dimension dropped from the result), leading
// dimensions broadcast as batches.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/ir.h"
#include "twinrt/status.h"

namespace twinrt::nn {

struct MatMulLayout {
  int64_t m = 0, k = 0, n = 0;
  std::vector<int64_t> out_shape;
  // Element offsets of each output batch's A and B matrices, in output batch order.
  std::vector<int64_t> a_offsets, b_offsets;
};

Result<MatMulLayout> matmul_layout(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// The output shape from symbolic input shapes, when both ranks are known.
std::optional<ir::Shape> matmul_shape(const ir::Shape* a, const ir::Shape* b);

}  // namespace twinrt::nn
