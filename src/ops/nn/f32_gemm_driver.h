// float32 matrix products on the tile kernels (kernels/gemm/f32_gemm.h): packing of
// whatever is not packed yet, cache blocking, threading and the fused epilogue.
//
// Every tile of C is computed whole (all of k, then the epilogue) by one thread, so the
// result does not depend on the number of threads; with an exact kernel it does not
// depend on the ISA tier either.
#pragma once

#include <functional>

#include "kernels/gemm/f32_gemm.h"
#include "ops/nn/compute_type.h"
#include "runtime/thread_pool.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::nn {

// One side of a product (A: m x k, B: k x n), in one of three forms.
struct F32Operand {
  // 1. Every panel packed in advance (weights, packed once at session creation), one after
  //    the other every `packed_stride` floats (0: k * width, the panels of this product).
  const float* packed = nullptr;
  int64_t packed_stride = 0;
  // 2. Strided: element (i, p) — row i of A or column i of B, depth p — at
  //    data[i * outer_stride + p * k_stride]; packed panel by panel while running.
  const float* data = nullptr;
  int64_t outer_stride = 0, k_stride = 0;
  // 3. A function that writes `panels` panels starting at row/column `first`, one after
  //    the other (k x width each, zero-padded past the edge): im2col straight into panel
  //    layout.
  std::function<void(int64_t first, int64_t panels, float* out)> fill;
};

struct F32Product {
  int64_t m = 0, n = 0, k = 0;
  F32Operand a, b;
  float* c = nullptr;
  int64_t ldc = 0;
  kernels::F32Epilogue epilogue;
  // Called with (first row, rows, first column, columns) on each finished block of C (after
  // the epilogue), by the thread that computed it, while the block is still in cache (L2: a
  // task's columns of a chunk of rows): a producer's folded elementwise group. Blocks are as
  // large as a task, so per-call costs are spread over many elements.
  std::function<void(int64_t, int64_t, int64_t, int64_t)> after_rows;
  // Set by the driver on the parts of a product it splits along k: C holds the sums of the
  // parts before (`accumulate`), and only the last part applies the epilogue and after_rows.
  bool accumulate = false, last_part = true;
};

Status run_f32_gemm(ThreadPool& pool, const kernels::F32GemmKernel& kernel, const F32Product& p);

// Runs `count` independent products (batches, groups): whole products per thread when
// there are enough to feed every thread, else one after the other, each split.
Status run_f32_gemms(ThreadPool& pool, const kernels::F32GemmKernel& kernel, int64_t count,
                     const std::function<F32Product(int64_t)>& product);

// A constant operand (weights) in panel layout, packed when the session is created.
struct PackedF32 {
  Tensor panels;
  const void* source = nullptr;  // the constant's bytes: a feed that overrides it is packed at run
  // The panels when `t` is the constant they were packed from, else null.
  const float* match(const Tensor& t) const {
    return panels.defined() && t.raw() == source ? panels.data<float>() : nullptr;
  }
};

// The float32 elements of a constant float or float16/bfloat16 tensor (widened by
// `widened`), or null for other types.
const float* constant_f32_data(const Tensor& t, const WidenedConstant& widened);

// Packs `groups` blocks of `rows` x `k` elements of a constant: element (i, p) of block g
// at src[g * rows * k + i * outer_stride + p * k_stride], panels of `width`, block after
// block. Holds nothing for a non-float constant.
Result<PackedF32> pack_f32_constant(const Tensor& t, const WidenedConstant& widened, int64_t groups, int64_t rows,
                                    int64_t k, int64_t outer_stride, int64_t k_stride, int width);

}  // namespace twinrt::nn
