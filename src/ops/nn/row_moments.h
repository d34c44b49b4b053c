// Mean and population variance of one contiguous row, the statistics InstanceNorm and
// LayerNormalization normalize with. Two passes (mean, then squared deviations), each
// summed in index order in Acc, so the result is the same on every target.
#pragma once

#include <cstdint>

namespace twinrt::nn {

template <class Acc, class C>
void row_moments(const C* x, int64_t n, Acc& mean, Acc& var) {
  Acc sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += static_cast<Acc>(x[i]);
  mean = n > 0 ? sum / static_cast<Acc>(n) : Acc(0);
  Acc sq = 0;
  for (int64_t i = 0; i < n; ++i) {
    const Acc d = static_cast<Acc>(x[i]) - mean;
    sq += d * d;
  }
  var = n > 0 ? sq / static_cast<Acc>(n) : Acc(0);
}

}  // namespace twinrt::nn
