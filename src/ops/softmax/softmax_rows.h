// Softmax and LogSoftmax along the middle axis of an [outer, n, inner] layout, shared by
// the Softmax ops and SoftmaxCrossEntropyLoss.
//
// For each (outer, inner) position: m = max_k x[k]; e_k = exp(x[k] - m) (so exp cannot
// overflow); s = sum_k e_k in the mode's accumulator (double in reference mode, float
// otherwise); softmax = e_k / s, log-softmax = (x[k] - m) - log(s). Outer blocks are
// independent and split across the pool; each is computed in the same order.
#pragma once

#include <vector>

#include "kernels/math/fast_float.h"
#include "ops/binary/numeric.h"
#include "ops/reduce/axes.h"
#include "runtime/thread_pool.h"
#include "twinrt/session.h"

namespace twinrt {

enum class SoftmaxKind { kSoftmax, kLogSoftmax };

template <class T, class Acc>
void softmax_block(const T* x, T* y, int64_t n, int64_t inner, SoftmaxKind kind, std::vector<Acc>& e) {
  using C = compute_t<T>;
  const size_t len = static_cast<size_t>(inner);
  std::vector<Acc> mx(len, lowest_value<Acc>()), sum(len, Acc(0));
  for (int64_t k = 0; k < n; ++k)
    for (int64_t i = 0; i < inner; ++i) mx[i] = nan_max(mx[i], static_cast<Acc>(load(x[k * inner + i])));
  // e keeps exp(x - m) for softmax and x - m for log-softmax.
  e.resize(static_cast<size_t>(n * inner));
  for (int64_t k = 0; k < n; ++k)
    for (int64_t i = 0; i < inner; ++i) e[k * inner + i] = static_cast<Acc>(load(x[k * inner + i])) - mx[i];
  if (kind == SoftmaxKind::kSoftmax) {
    if constexpr (std::is_same_v<Acc, float>) math::exp_f32_n(e.data(), e.data(), n * inner);  // acc_exp's bits
    else for (Acc& v : e) v = acc_exp(v);
  }
  for (int64_t k = 0; k < n; ++k)
    for (int64_t i = 0; i < inner; ++i) {
      const Acc v = e[k * inner + i];
      sum[i] += kind == SoftmaxKind::kLogSoftmax ? acc_exp(v) : v;
    }
  // (k, i) loops, not j % inner: a division per element cost more than the softmax itself.
  if (kind == SoftmaxKind::kLogSoftmax) {
    for (size_t i = 0; i < len; ++i) sum[i] = acc_log(sum[i]);
    for (int64_t k = 0; k < n; ++k)
      for (int64_t i = 0; i < inner; ++i) y[k * inner + i] = store<T>(static_cast<C>(e[k * inner + i] - sum[i]));
  } else {
    for (int64_t k = 0; k < n; ++k)
      for (int64_t i = 0; i < inner; ++i) y[k * inner + i] = store<T>(static_cast<C>(e[k * inner + i] / sum[i]));
  }
}

template <class T>
void softmax_rows(const T* x, T* y, AxisLayout l, SoftmaxKind kind, Mode mode, ThreadPool& pool) {
  const int64_t block = l.n * l.inner;
  const int64_t grain = std::max<int64_t>(1, (1 << 14) / std::max<int64_t>(block, 1));
  pool.parallel_for(l.outer, grain, [&](int64_t begin, int64_t end) {
    if (mode == Mode::kReference || std::is_same_v<T, double>) {
      std::vector<double> scratch;
      for (int64_t o = begin; o < end; ++o)
        softmax_block<T, double>(x + o * block, y + o * block, l.n, l.inner, kind, scratch);
    } else {
      std::vector<float> scratch;
      for (int64_t o = begin; o < end; ++o)
        softmax_block<T, float>(x + o * block, y + o * block, l.n, l.inner, kind, scratch);
    }
  });
}

}  // namespace twinrt
