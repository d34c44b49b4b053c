// The int32 matrix product (A - a_zero) · (B - b_zero) shared by MatMulInteger,
// QLinearMatMul and the com.microsoft MatMulIntegerToFloat / DynamicQuantizeMatMul.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/nn/matmul_layout.h"
#include "ops/op.h"
#include "ops/quant/i8_weights.h"

namespace twinrt::quant {

// Per-tensor (stride 0) or per-row / per-column (stride 1) parameters of one operand.
template <class V>
struct OperandParams {
  std::vector<V> values = {V(0)};
  int64_t stride = 0;
};

// Reads a scale or zero-point input that is a scalar or holds `len` values (one per row
// of A or column of B); a missing input means 0.
template <class V, class Read>
Result<OperandParams<V>> read_params(RunContext& ctx, size_t input, int64_t len, const std::string& what, Read&& read) {
  OperandParams<V> p;
  if (!ctx.has_input(input)) return p;
  ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(input));
  ASSIGN_OR_RETURN(p.values, read(*t, what));
  if (t->numel() == 1) return p;
  if (t->numel() != len)
    return not_implemented(what + " of shape " + shape_to_string(t->shape()) + " is neither a scalar nor " +
                           std::to_string(len) + " per-row/column values");
  p.stride = 1;
  return p;
}

// The products of every batch of `l` into out (batches x M x N, zero-filled by the
// caller): through the packed B when there is one and a_zero is per-tensor, else the
// reference kernel. A and B are uint8 or int8.
Status integer_product(RunContext& ctx, const Tensor& a, const Tensor& b, const nn::MatMulLayout& l,
                       const OperandParams<int32_t>& za, const OperandParams<int32_t>& zb, const I8Weights* packed,
                       int32_t* out);

// Runs the packed product of A (all batches as one tall matrix) with the packed B.
void packed_product(RunContext& ctx, const Tensor& a, const nn::MatMulLayout& l, const OperandParams<int32_t>& za,
                    const OperandParams<int32_t>& zb, const I8Weights& packed, const I8BlockStore& store);

}  // namespace twinrt::quant
