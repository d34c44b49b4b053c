// An N x N block of floats held in N vectors, transposed in registers: log2(N) rounds of
// interleaving vector j with vector j + N / 2. For the tiers' kernels that move planes to
// pixel-major blocks and back (the depthwise plane blocks, the max pool's plane blocks).
// Internal linkage on purpose, as in fast_float_poly.h: each tier compiles its own copy
// with its own flags.
#pragma once

#include <cstddef>
#include <utility>

namespace twinrt::kernels {
namespace {

// Lane i of v[j] becomes lane j of v[i]. Fully unrolled, so that the vectors stay in
// registers (as loops, -O2 kept them on the stack).
template <int N, class Vec, size_t... I>
inline void transpose_vectors(Vec* v, std::index_sequence<I...>) {
#pragma GCC unroll 4
  for (int round = 1; round < N; round *= 2) {
    Vec u[N];
#pragma GCC unroll 8
    for (int j = 0; j < N / 2; ++j) {
      u[2 * j] = __builtin_shufflevector(v[j], v[j + N / 2], (I % 2 ? I / 2 + N : I / 2)...);
      u[2 * j + 1] = __builtin_shufflevector(v[j], v[j + N / 2], (I % 2 ? I / 2 + N + N / 2 : I / 2 + N / 2)...);
    }
#pragma GCC unroll 16
    for (int j = 0; j < N; ++j) v[j] = u[j];
  }
}
template <int N, class Vec>
inline void transpose_vectors(Vec* v) {
  transpose_vectors<N>(v, std::make_index_sequence<N>());
}

}  // namespace
}  // namespace twinrt::kernels
