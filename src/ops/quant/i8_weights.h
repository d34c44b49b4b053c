// Constant 8-bit weights packed once, when a session is created, for the integer GEMM
// kernels (kernels/gemm/i8_gemm.h); and the row-blocked product of activations with them.
// Weights go to the signed domain, activations to the unsigned one.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "kernels/gemm/i8_gemm.h"
#include "runtime/thread_pool.h"
#include "twinrt/tensor.h"

namespace twinrt::quant {

struct I8Weights {
  const kernels::I8GemmKernel* kernel = nullptr;
  bool src_unsigned = false;             // the weights' own type: uint8 (true) or int8
  std::vector<kernels::I8Panels> parts;  // MatMul: B's columns; Conv: W's rows, one part per group
};

// B (K x N, uint8 or int8) of MatMulInteger / QLinearMatMul as column panels; nullopt
// when B is not a 2-D 8-bit tensor (the op then runs the reference path).
std::optional<I8Weights> pack_matmul_weights(Isa isa, const Tensor& b);
// W [M, C/group, kernel...] of ConvInteger / QLinearConv as row panels, one part per group.
std::optional<I8Weights> pack_conv_weights(Isa isa, const Tensor& w, int64_t group);

// Zero points (one, or one per row/column) moved into the packed domain.
std::vector<int32_t> packed_zeros(const std::vector<int32_t>& zeros, bool src_unsigned, bool to_unsigned);

// Receives a finished block of the product: rows [row0, row0 + rows), columns
// [col0, col0 + cols), in acc with row stride ld.
using I8BlockStore = std::function<void(int64_t row0, int64_t rows, int64_t col0, int64_t cols, const int32_t* acc, int64_t ld)>;

// (A - a_zero) · (B - b_zero) for A: `rows` x K bytes (row stride K, uint8 when
// a_unsigned) and the packed B; b_zero holds 1 or N values in B's packed domain. Blocks
// are split over the pool; each element is computed by one call, so threads change nothing.
void matmul_packed(ThreadPool& pool, const I8Weights& b, const std::vector<int32_t>& b_zero, const uint8_t* a,
                   bool a_unsigned, int32_t a_zero, int64_t rows, const I8BlockStore& store);

}  // namespace twinrt::quant
