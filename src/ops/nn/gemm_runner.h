// Kernel choice and threading for matrix products (Gemm, MatMul, Conv, Einsum).
#pragma once

#include <algorithm>
#include <functional>
#include <type_traits>
#include <vector>

#include "kernels/ref/gemm_ref.h"
#include "runtime/thread_pool.h"
#include "twinrt/session.h"

namespace twinrt::nn {

// The matrix-product kernel for element type T in `mode`; chosen once when an op's
// kernel is created. T is float, double or a 32/64-bit integer.
template <class T>
kernels::GemmFn<T> select_gemm(Mode mode) {
  if constexpr (std::is_same_v<T, float>)
    return mode == Mode::kReference ? kernels::f32_gemm_f64acc_ref : kernels::f32_gemm_ref;
  else if constexpr (std::is_same_v<T, double>) return kernels::f64_gemm_ref;
  else if constexpr (std::is_same_v<T, int32_t>) return kernels::i32_gemm_ref;
  else if constexpr (std::is_same_v<T, int64_t>) return kernels::i64_gemm_ref;
  else if constexpr (std::is_same_v<T, uint32_t>) return kernels::u32_gemm_ref;
  else if constexpr (std::is_same_v<T, uint64_t>) return kernels::u64_gemm_ref;
  else static_assert(!sizeof(T), "no gemm kernel for this type");
}

// The matrix-product kernels of one op, chosen once when its kernel is created (the
// mode, and later the CPU, decide; nothing is chosen per run).
class GemmKernels {
 public:
  explicit GemmKernels(Mode mode) : f32_(select_gemm<float>(mode)) {}
  template <class T>
  kernels::GemmFn<T> get() const {
    if constexpr (std::is_same_v<T, float>) return f32_;
    else return select_gemm<T>(Mode::kDefault);  // one kernel per other type, mode-independent
  }

 private:
  kernels::GemmFn<float> f32_;
};

// Splits an m x n output whose elements each cost k multiply-adds into row/column blocks
// and calls block(m0, rows, n0, cols) for each across the pool. Rows are split first
// (each block reads its own rows of A); columns too when rows alone cannot feed every thread.
inline void parallel_blocks(ThreadPool& pool, int64_t m, int64_t n, int64_t k,
                            const std::function<void(int64_t, int64_t, int64_t, int64_t)>& block) {
  constexpr int64_t kSerialWork = 1 << 16;  // multiply-adds below which threads cost more than they save
  if (m <= 0 || n <= 0) return;
  if (pool.size() <= 1 || m * n * std::max<int64_t>(k, 1) < kSerialWork) {
    block(0, m, 0, n);
    return;
  }
  const int64_t want = int64_t{pool.size()} * 4;
  constexpr int64_t kRowStep = kernels::kGemmRowMultiple;
  const int64_t row_blocks = std::min<int64_t>(want, (m + kRowStep - 1) / kRowStep);
  const int64_t col_blocks = std::min<int64_t>((want + row_blocks - 1) / row_blocks, (n + 63) / 64);
  const int64_t rows = ((m + row_blocks - 1) / row_blocks + kRowStep - 1) / kRowStep * kRowStep;
  const int64_t cols = ((n + col_blocks - 1) / col_blocks + 7) / 8 * 8;
  const int64_t nr = (m + rows - 1) / rows, nc = (n + cols - 1) / cols;
  pool.parallel_for(nr * nc, 1, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const int64_t m0 = (t / nc) * rows, n0 = (t % nc) * cols;
      block(m0, std::min(rows, m - m0), n0, std::min(cols, n - n0));
    }
  });
}

// Runs `fn` on row/column blocks of `p` across the pool. Each block computes whole dot
// products, so the result does not depend on the number of threads.
template <class T>
void parallel_gemm(ThreadPool& pool, kernels::GemmFn<T> fn, const kernels::GemmProblem<T>& p) {
  parallel_blocks(pool, p.m, p.n, p.k, [&](int64_t m0, int64_t rows, int64_t n0, int64_t cols) {
    fn(kernels::gemm_block(p, m0, rows, n0, cols));
  });
}

// Runs a batch of independent problems: whole problems per thread when there are enough
// of them, else each one split by parallel_gemm.
template <class T>
void parallel_gemm_batch(ThreadPool& pool, kernels::GemmFn<T> fn,
                         const std::vector<kernels::GemmProblem<T>>& batch) {
  const int64_t count = static_cast<int64_t>(batch.size());
  if (count >= int64_t{pool.size()} * 2) {
    pool.parallel_for(count, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) fn(batch[static_cast<size_t>(i)]);
    });
    return;
  }
  for (const auto& p : batch) parallel_gemm(pool, fn, p);
}

}  // namespace twinrt::nn
