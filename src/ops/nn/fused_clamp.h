// A Relu/Clip folded into a matrix-product op by passes/fuse_clamp_activation.cc: the
// tile kernels apply it in their epilogue; every other path calls apply_fused_clamp on
// its finished output, with the same comparisons as the Relu and Clip kernels.
#pragma once

#include <limits>
#include <optional>

#include "ir/ir.h"
#include "kernels/gemm/f32_gemm.h"
#include "runtime/thread_pool.h"

namespace twinrt::nn {

inline void set_epilogue_clamp(kernels::F32Epilogue& e, const std::optional<ir::FusedClamp>& clamp) {
  if (!clamp) return;
  e.clamp = true;
  e.min = clamp->min.value_or(-std::numeric_limits<float>::infinity());
  e.max = clamp->max.value_or(std::numeric_limits<float>::infinity());
}

template <class C>
void apply_fused_clamp(ThreadPool& pool, const std::optional<ir::FusedClamp>& clamp, C* y, int64_t n) {
  if (!clamp) return;
  const std::optional<C> lo = clamp->min ? std::optional<C>(static_cast<C>(*clamp->min)) : std::nullopt;
  const std::optional<C> hi = clamp->max ? std::optional<C>(static_cast<C>(*clamp->max)) : std::nullopt;
  pool.parallel_for(n, 1 << 14, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      if (lo && y[i] < *lo) y[i] = *lo;
      if (hi && y[i] > *hi) y[i] = *hi;
    }
  });
}

}  // namespace twinrt::nn
