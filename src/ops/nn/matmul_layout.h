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

// Transposes a MatMul reads its operands and writes its result through (fold_transpose_
// into_matmul): the product's operand A is the stored tensor transposed by `a` (its axis d
// is the stored axis a[d]), B likewise, and the stored result is the product transposed
// by `y`. Empty: no permutation.
struct MatMulPerms {
  std::vector<int64_t> a, b, y;
};

struct MatMulLayout {
  int64_t m = 0, k = 0, n = 0;
  std::vector<int64_t> out_shape;  // as stored (after `y`)
  // Element offsets of each output batch's A, B and C matrices, in output batch order.
  std::vector<int64_t> a_offsets, b_offsets, c_offsets;
  // Element strides inside each matrix: A[i][p] at i * a_row_stride + p * a_k_stride,
  // B[p][j] at p * b_k_stride + j * b_col_stride, C[i][j] at i * c_row_stride + j.
  int64_t a_row_stride = 0, a_k_stride = 1, b_k_stride = 0, b_col_stride = 1, c_row_stride = 0;
};

Result<MatMulLayout> matmul_layout(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                   const MatMulPerms& perms = {});

// Batches that share one B and whose rows of A and of C continue evenly from one batch to
// the next become one product with batches * m rows, so that B is read (or its packed
// panels streamed) once, not once per batch: ViT's attention projections read [197, 1, 768]
// against one [768, 2304] B as 197 one-row products. Every output is still the same dot
// product. Not for products with per-row parameters of A (MatMulInteger's zero points).
void merge_batches_sharing_b(MatMulLayout& layout);

// The output shape from symbolic input shapes, when both ranks are known.
std::optional<ir::Shape> matmul_shape(const ir::Shape* a, const ir::Shape* b, const MatMulPerms& perms = {});

}  // namespace twinrt::nn
