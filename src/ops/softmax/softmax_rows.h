// Softmax and LogSoftmax along the middle axis of an [outer, n, inner] layout, shared by
// the Softmax ops and SoftmaxCrossEntropyLoss.
//
// For each (outer, inner) position: m = max_k x[k]; e_k = exp(x[k] - m) (so exp cannot
// overflow); s = sum_k e_k in the mode's accumulator (double in reference mode, float
// otherwise; float32 softmax rows sum in kernels/norm/f32_rows.h's order, others in index
// order); softmax = e_k / s, log-softmax = (x[k] - m) - log(s). Outer blocks are
// independent and split across the pool; each is computed in the same order.
#pragma once

#include <type_traits>
#include <vector>

#include "kernels/math/fast_float.h"
#include "kernels/norm/f32_rows.h"
#include "ops/binary/numeric.h"
#include "ops/reduce/axes.h"
#include "runtime/thread_pool.h"
#include "twinrt/session.h"

namespace twinrt {

enum class SoftmaxKind { kSoftmax, kLogSoftmax };

// kInner: the inner size when known at compile time (1: the usual softmax along the last
// axis, whose running max and sum then stay in registers), else 0.
template <int kInner, class T, class Acc>
void softmax_block(const T* x, T* y, int64_t n, int64_t inner, SoftmaxKind kind, math::F32ArrayFn exp_n,
                   std::vector<Acc>& scratch) {
  using C = compute_t<T>;
  if constexpr (kInner != 0) inner = kInner;
  // e keeps exp(x - m) for softmax and x - m for log-softmax; then come m and the sums.
  scratch.resize(static_cast<size_t>((n + (kInner != 0 ? 0 : 2)) * inner));
  Acc* e = scratch.data();
  Acc fixed[2 * (kInner != 0 ? kInner : 1)];
  Acc* mx = kInner != 0 ? fixed : e + n * inner;
  Acc* sum = mx + inner;
  for (int64_t i = 0; i < inner; ++i) mx[i] = lowest_value<Acc>(), sum[i] = Acc(0);
  for (int64_t k = 0; k < n; ++k)
    for (int64_t i = 0; i < inner; ++i) mx[i] = nan_max(mx[i], static_cast<Acc>(load(x[k * inner + i])));
  for (int64_t k = 0; k < n; ++k)
    for (int64_t i = 0; i < inner; ++i) e[k * inner + i] = static_cast<Acc>(load(x[k * inner + i])) - mx[i];
  // (k, i) loops, not j % inner: a division per element cost more than the softmax itself.
  if (kind == SoftmaxKind::kLogSoftmax) {
    for (int64_t k = 0; k < n; ++k)
      for (int64_t i = 0; i < inner; ++i) sum[i] += acc_exp(e[k * inner + i]);
    for (int64_t i = 0; i < inner; ++i) sum[i] = acc_log(sum[i]);
    for (int64_t k = 0; k < n; ++k)
      for (int64_t i = 0; i < inner; ++i) y[k * inner + i] = store<T>(static_cast<C>(e[k * inner + i] - sum[i]));
    return;
  }
  if constexpr (std::is_same_v<Acc, float>) exp_n(e, e, n * inner);  // acc_exp's bits
  else for (int64_t j = 0; j < n * inner; ++j) e[j] = acc_exp(e[j]);
  for (int64_t k = 0; k < n; ++k)
    for (int64_t i = 0; i < inner; ++i) sum[i] += e[k * inner + i];
  for (int64_t k = 0; k < n; ++k)
    for (int64_t i = 0; i < inner; ++i) y[k * inner + i] = store<T>(static_cast<C>(e[k * inner + i] / sum[i]));
}

// Softmax of a float32 row in default or exact mode, on the tier's row kernels: the same
// steps as softmax_block, with the sum in f32_rows.h's order (and, in default mode, the
// float-arithmetic exp: kernels/math/exp_float.h).
inline void softmax_row(const float* x, float* y, int64_t n, math::F32ArrayFn exp_n,
                        const kernels::F32RowKernels& rows) {
  rows.subtract(x, rows.max(x, n), y, n);
  exp_n(y, y, n);
  rows.divide(y, rows.sum(y, n), y, n);
}

template <class T, class Acc>
void softmax_blocks(const T* x, T* y, int64_t begin, int64_t end, AxisLayout l, SoftmaxKind kind, Mode mode, Isa isa) {
  const int64_t block = l.n * l.inner;
  const math::F32ArrayFn exp_n = math::exp_f32_n_kernel(isa);
  constexpr bool kFloatRows = std::is_same_v<T, float> && std::is_same_v<Acc, float>;
  if constexpr (kFloatRows)
    if (l.inner == 1 && kind == SoftmaxKind::kSoftmax) {
      const kernels::F32RowKernels& rows = kernels::f32_row_kernels(isa);
      const math::F32ArrayFn row_exp = mode == Mode::kDefault ? math::exp_in_float_n_kernel(isa) : exp_n;
      for (int64_t o = begin; o < end; ++o) softmax_row(x + o * block, y + o * block, l.n, row_exp, rows);
      return;
    }
  std::vector<Acc> scratch;
  for (int64_t o = begin; o < end; ++o) {
    if (l.inner == 1) softmax_block<1>(x + o * block, y + o * block, l.n, 1, kind, exp_n, scratch);
    else softmax_block<0>(x + o * block, y + o * block, l.n, l.inner, kind, exp_n, scratch);
  }
}

template <class T>
// `isa` (never kAuto) picks the vectors of the float exp; every tier gives the same bits.
void softmax_rows(const T* x, T* y, AxisLayout l, SoftmaxKind kind, Mode mode, Isa isa, ThreadPool& pool) {
  const int64_t block = l.n * l.inner;
  const int64_t grain = std::max<int64_t>(1, (1 << 14) / std::max<int64_t>(block, 1));
  pool.parallel_for(l.outer, grain, [&](int64_t begin, int64_t end) {
    if (mode == Mode::kReference || std::is_same_v<T, double>) softmax_blocks<T, double>(x, y, begin, end, l, kind, mode, isa);
    else softmax_blocks<T, float>(x, y, begin, end, l, kind, mode, isa);
  });
}

}  // namespace twinrt
