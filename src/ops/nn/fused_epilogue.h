// What graph passes fold into a matrix-product op's output: a residual Add
// (passes/fuse_residual_add.cc) and then a Relu/Clip (passes/fuse_clamp_activation.cc).
// The tile kernels apply both in their epilogue; every other path calls these helpers on
// its finished output, with the same operations as the Add, Relu and Clip kernels.
#pragma once

#include <limits>
#include <optional>

#include "ir/ir.h"
#include "kernels/gemm/f32_gemm.h"
#include "ops/binary/elementwise.h"
#include "ops/binary/numeric.h"
#include "runtime/thread_pool.h"

namespace twinrt::nn {

// E: kernels::F32Epilogue or kernels::F32DwConvPlanes (fields clamp, min, max).
template <class E>
void set_epilogue_clamp(E& e, const std::optional<ir::FusedClamp>& clamp) {
  if (!clamp) return;
  e.clamp = true;
  e.min = clamp->min.value_or(-std::numeric_limits<float>::infinity());
  e.max = clamp->max.value_or(std::numeric_limits<float>::infinity());
}

// y[i] = y[i] + r[i]: Add on two same-shaped tensors.
template <class C>
void apply_fused_residual(ThreadPool& pool, const C* r, C* y, int64_t n) {
  pool.parallel_for(n, 1 << 14, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) y[i] = y[i] + r[i];
  });
}

// Branch-free: an absent bound is one no value crosses (numeric.h), and NaN fails both tests.
template <class C>
void clamp_values(const ir::FusedClamp& clamp, C* y, int64_t n) {
  const C lo = clamp.min ? static_cast<C>(*clamp.min) : no_lower_bound<C>();
  const C hi = clamp.max ? static_cast<C>(*clamp.max) : no_upper_bound<C>();
  for (int64_t i = 0; i < n; ++i) {
    C v = y[i];
    v = v < lo ? lo : v;
    y[i] = v > hi ? hi : v;
  }
}

template <class C>
void apply_fused_clamp(ThreadPool& pool, const std::optional<ir::FusedClamp>& clamp, C* y, int64_t n) {
  if (!clamp) return;
  pool.parallel_for(n, 1 << 14, [&](int64_t begin, int64_t end) { clamp_values(*clamp, y + begin, end - begin); });
}

// Output 0 = clamp(product + r) with broadcasting (r may make it larger than the product):
// a fused Add whose r does not fit the epilogue, as the separate Add and Relu/Clip do it.
template <class T>
Status add_residual_then_clamp(RunContext& ctx, const Tensor& product, const Tensor& r,
                               const std::optional<ir::FusedClamp>& clamp) {
  ASSIGN_OR_RETURN(std::vector<int64_t> out_shape, broadcast_shapes({product.shape(), r.shape()}));
  const auto add_then_clamp = [clamp](T u, T v) {
    twinrt::compute_t<T> sum = twinrt::load(twinrt::store<T>(twinrt::load(u) + twinrt::load(v)));
    if (clamp && clamp->min && sum < *clamp->min) sum = static_cast<twinrt::compute_t<T>>(*clamp->min);
    if (clamp && clamp->max && sum > *clamp->max) sum = static_cast<twinrt::compute_t<T>>(*clamp->max);
    return twinrt::store<T>(sum);
  };
  return broadcast_binary<T, T, T>(ctx, product, product.shape(), r, r.shape(), out_shape, add_then_clamp);
}

}  // namespace twinrt::nn
