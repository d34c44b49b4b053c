// Mean and population variance of one contiguous row, the statistics InstanceNorm and
// LayerNormalization normalize with. Two passes (mean, then squared deviations). Float rows
// sum on the tier's row kernels (kernels/norm/f32_rows.h: a fixed order of 32 partial sums),
// double rows (reference mode) in index order; either way the result is the same on every
// target.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/norm/f32_rows.h"

namespace twinrt::nn {

template <class Acc, class C>
void row_moments(const C* x, int64_t n, Acc& mean, Acc& var, const kernels::F32RowKernels& rows) {
  if (n <= 0) {
    mean = var = Acc(0);
    return;
  }
  if constexpr (std::is_same_v<Acc, float> && std::is_same_v<C, float>) {
    mean = rows.sum(x, n) / static_cast<float>(n);
    var = rows.sum_squared_deviations(x, n, mean) / static_cast<float>(n);
  } else {
    Acc sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += static_cast<Acc>(x[i]);
    mean = sum / static_cast<Acc>(n);
    Acc sq = 0;
    for (int64_t i = 0; i < n; ++i) {
      const Acc d = static_cast<Acc>(x[i]) - mean;
      sq += d * d;
    }
    var = sq / static_cast<Acc>(n);
  }
}

}  // namespace twinrt::nn
