#include "ops/tensor/elements.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace twinrt::tensor_ops {
namespace {

// 16-byte vectors of 1- and 4-byte elements (SSE2 natively, SIMD128 in WebAssembly; plain
// loops where neither exists) and their interleaves of the first and of the second halves.
using U8x16 = uint8_t __attribute__((vector_size(16)));
using U32x4 = uint32_t __attribute__((vector_size(16)));
inline U8x16 interleave_lo(U8x16 a, U8x16 b) {
  return __builtin_shufflevector(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
}
inline U8x16 interleave_hi(U8x16 a, U8x16 b) {
  return __builtin_shufflevector(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
}
inline U32x4 interleave_lo(U32x4 a, U32x4 b) { return __builtin_shufflevector(a, b, 0, 4, 1, 5); }
inline U32x4 interleave_hi(U32x4 a, U32x4 b) { return __builtin_shufflevector(a, b, 2, 6, 3, 7); }

// dst[i * dst_stride + j] = src[j * src_stride + i] for an L x L block, L the vector's
// element count: log2(L) rounds of interleaving row i with row i + L / 2 transpose it.
template <class V, class E>
void transpose_block(const E* src, int64_t src_stride, E* dst, int64_t dst_stride) {
  constexpr int L = sizeof(V) / sizeof(E);
  V v[L];
  for (int j = 0; j < L; ++j) std::memcpy(&v[j], src + j * src_stride, sizeof(V));
  for (int round = 1; round < L; round *= 2) {
    V w[L];
    for (int i = 0; i < L / 2; ++i) {
      w[2 * i] = interleave_lo(v[i], v[i + L / 2]);
      w[2 * i + 1] = interleave_hi(v[i], v[i + L / 2]);
    }
    std::copy(w, w + L, v);
  }
  for (int i = 0; i < L; ++i) std::memcpy(dst + i * dst_stride, &v[i], sizeof(V));
}

// A full 16 x 16 tile (dst[i][j] = src[j][i]) in vector blocks where the element size has
// them; false otherwise.
template <class E>
bool transpose_tile16(const E* src, int64_t src_stride, E* dst, int64_t dst_stride) {
  if constexpr (std::is_same_v<E, uint8_t>) {
    transpose_block<U8x16>(src, src_stride, dst, dst_stride);
    return true;
  } else if constexpr (std::is_same_v<E, uint32_t>) {
    for (int i = 0; i < 16; i += 4)
      for (int j = 0; j < 16; j += 4) transpose_block<U32x4>(src + j * src_stride + i, src_stride, dst + i * dst_stride + j, dst_stride);
    return true;
  }
  return false;
}

// A transpose-like copy whose source-contiguous dim k is not the innermost output dim:
// copies in square tiles of (k, last) so both sides stay in cache.
template <class E>
void copy_tiled(E* dst, const E* src, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                size_t k) {
  constexpr int64_t kTile = 16;
  const size_t last = shape.size() - 1;
  const std::vector<int64_t> dst_strides = row_major_strides(shape);
  std::vector<int64_t> outer_shape;  // the dims other than k and last
  std::vector<size_t> outer_dims;
  for (size_t d = 0; d < last; ++d)
    if (d != k) {
      outer_shape.push_back(shape[d]);
      outer_dims.push_back(d);
    }
  const int64_t rows = shape[k], cols = shape[last], col_stride = strides[last], row_step = dst_strides[k];
  std::vector<int64_t> idx(outer_shape.size(), 0);
  do {
    int64_t src_off = 0, dst_off = 0;
    for (size_t i = 0; i < idx.size(); ++i) {
      src_off += idx[i] * strides[outer_dims[i]];
      dst_off += idx[i] * dst_strides[outer_dims[i]];
    }
    for (int64_t r0 = 0; r0 < rows; r0 += kTile)
      for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
        const int64_t r1 = std::min(rows, r0 + kTile), c1 = std::min(cols, c0 + kTile);
        if (r1 - r0 == kTile && c1 - c0 == kTile &&
            transpose_tile16(src + src_off + c0 * col_stride + r0, col_stride, dst + dst_off + r0 * row_step + c0, row_step))
          continue;
        for (int64_t r = r0; r < r1; ++r) {
          E* d = dst + dst_off + r * row_step;
          const E* s = src + src_off + r;
          for (int64_t c = c0; c < c1; ++c) d[c] = s[c * col_stride];
        }
      }
  } while (next_index(idx, outer_shape));
}

template <class E>
void copy_strided_typed(E* dst, const E* src, const std::vector<int64_t>& shape,
                        const std::vector<int64_t>& strides) {
  const size_t rank = shape.size();
  if (rank == 0) {
    *dst = *src;
    return;
  }
  if (rank >= 2 && strides[rank - 1] != 1) {
    for (size_t k = 0; k + 1 < rank; ++k)
      if (strides[k] == 1) return copy_tiled(dst, src, shape, strides, k);
  }
  const int64_t inner = shape[rank - 1];
  const int64_t inner_stride = strides[rank - 1];
  std::vector<int64_t> idx(rank - 1, 0);
  do {
    int64_t off = 0;
    for (size_t d = 0; d + 1 < rank; ++d) off += idx[d] * strides[d];
    const E* s = src + off;
    if (inner_stride == 1) {
      for (int64_t i = 0; i < inner; ++i) dst[i] = s[i];
    } else {
      for (int64_t i = 0; i < inner; ++i) dst[i] = s[i * inner_stride];
    }
    dst += inner;
  } while (next_index(idx, shape));
}

template <class E>
void gather_maps_typed(E* dst, const E* src, const std::vector<int64_t>& src_shape,
                       const std::vector<std::vector<int64_t>>& maps, const E* fill) {
  const size_t rank = maps.size();
  if (rank == 0) {
    *dst = *src;
    return;
  }
  const std::vector<int64_t> strides = row_major_strides(src_shape);
  std::vector<int64_t> out_shape(rank);
  for (size_t d = 0; d < rank; ++d) out_shape[d] = static_cast<int64_t>(maps[d].size());
  const std::vector<int64_t>& last = maps[rank - 1];
  const int64_t inner = static_cast<int64_t>(last.size());
  // A contiguous, fully valid last map turns each row into one run copy.
  bool last_is_run = inner > 0 && last[0] >= 0;
  for (int64_t i = 1; i < inner && last_is_run; ++i) last_is_run = last[i] == last[0] + i;
  bool last_has_fill = false;
  for (int64_t c : last) last_has_fill = last_has_fill || c < 0;
  // The source row of the previous output row: a row that maps to the same one (nearest
  // upsampling, Tile, edge padding) is a copy of the row just written.
  int64_t prev_off = -1;
  bool prev_outside = false;

  std::vector<int64_t> idx(rank - 1, 0);
  for (size_t d = 0; d + 1 < rank; ++d)
    if (out_shape[d] == 0) return;
  do {
    int64_t off = 0;
    bool outside = false;
    for (size_t d = 0; d + 1 < rank; ++d) {
      int64_t c = maps[d][idx[d]];
      if (c < 0) outside = true;
      off += c * strides[d];
    }
    if (off == prev_off && outside == prev_outside) {
      std::copy(dst - inner, dst, dst);
    } else if (outside) {
      for (int64_t i = 0; i < inner; ++i) dst[i] = *fill;
    } else if (last_is_run) {
      const E* s = src + off + last[0];
      for (int64_t i = 0; i < inner; ++i) dst[i] = s[i];
    } else if (!last_has_fill) {
      for (int64_t i = 0; i < inner; ++i) dst[i] = src[off + last[i]];
    } else {
      for (int64_t i = 0; i < inner; ++i) dst[i] = last[i] < 0 ? *fill : src[off + last[i]];
    }
    prev_off = off;
    prev_outside = outside;
    dst += inner;
  } while (next_index(idx, out_shape));
}

}  // namespace

std::vector<int64_t> row_major_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  return strides;
}

Status copy_strided(DataType dt, void* dst, const void* src, const std::vector<int64_t>& shape,
                    const std::vector<int64_t>& src_strides) {
  if (shape_numel(shape) == 0) return Status::ok();
  // Drop unit dims and merge dims that are contiguous in the source: fewer, longer loops.
  std::vector<int64_t> dims, strides;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (!dims.empty() && strides.back() == src_strides[d] * shape[d]) {
      dims.back() *= shape[d];
      strides.back() = src_strides[d];
      continue;
    }
    dims.push_back(shape[d]);
    strides.push_back(src_strides[d]);
  }
  return dispatch_by_size(dt, [&](auto* tag) {
    using E = std::remove_pointer_t<decltype(tag)>;
    copy_strided_typed(static_cast<E*>(dst), static_cast<const E*>(src), dims, strides);
    return Status::ok();
  });
}

Status gather_by_axis_maps(DataType dt, void* dst, const void* src,
                           const std::vector<int64_t>& src_shape,
                           const std::vector<std::vector<int64_t>>& maps, const void* fill) {
  if (maps.size() != src_shape.size())
    return internal_error("gather_by_axis_maps: rank mismatch");
  for (size_t d = 0; d < maps.size(); ++d)
    for (int64_t c : maps[d]) {
      if (c >= src_shape[d]) return internal_error("gather_by_axis_maps: coordinate out of range");
      if (c < 0 && !fill) return internal_error("gather_by_axis_maps: no fill value");
    }
  return dispatch_by_size(dt, [&](auto* tag) {
    using E = std::remove_pointer_t<decltype(tag)>;
    gather_maps_typed(static_cast<E*>(dst), static_cast<const E*>(src), src_shape, maps,
                      static_cast<const E*>(fill));
    return Status::ok();
  });
}

}  // namespace twinrt::tensor_ops
