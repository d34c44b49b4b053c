// Type-generic element movement for the data-movement ops (Transpose, Slice, Gather, Pad,
// Tile, ...). These ops never look at element values, so they move elements by their byte
// size: one instantiation per size serves every dtype of that size, and string tensors
// copy std::string objects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::tensor_ops {

// A 16-byte element (complex128), moved as a whole.
struct Bytes16 {
  uint64_t lo, hi;
};

// Calls f with a typed null pointer whose pointee has the element's size: uint8_t,
// uint16_t, uint32_t, uint64_t, Bytes16, or std::string for string tensors.
template <class F>
Status dispatch_by_size(DataType dt, F&& f) {
  if (dt == DataType::kString) return f(static_cast<std::string*>(nullptr));
  switch (dtype_size(dt)) {
    case 1: return f(static_cast<uint8_t*>(nullptr));
    case 2: return f(static_cast<uint16_t*>(nullptr));
    case 4: return f(static_cast<uint32_t*>(nullptr));
    case 8: return f(static_cast<uint64_t*>(nullptr));
    case 16: return f(static_cast<Bytes16*>(nullptr));
    default: break;
  }
  return not_implemented(std::string("type ") + dtype_name(dt) + " is not supported here");
}

// Element `index` of a tensor as an untyped pointer.
inline std::byte* element_ptr(Tensor& t, int64_t index) {
  return static_cast<std::byte*>(t.raw()) + static_cast<size_t>(index) * dtype_size(t.dtype());
}
inline const std::byte* element_ptr(const Tensor& t, int64_t index) {
  return static_cast<const std::byte*>(t.raw()) + static_cast<size_t>(index) * dtype_size(t.dtype());
}

// Copies n elements (non-overlapping).
inline void copy_elements(DataType dt, void* dst, const void* src, int64_t n) {
  if (n <= 0) return;
  if (dt == DataType::kString) {
    const auto* s = static_cast<const std::string*>(src);
    auto* d = static_cast<std::string*>(dst);
    for (int64_t i = 0; i < n; ++i) d[i] = s[i];
  } else {
    std::memcpy(dst, src, static_cast<size_t>(n) * dtype_size(dt));
  }
}

// Sets n elements of dst to the one element at `value`.
inline Status fill_elements(DataType dt, void* dst, const void* value, int64_t n) {
  return dispatch_by_size(dt, [&](auto* tag) {
    using E = std::remove_pointer_t<decltype(tag)>;
    const E v = *static_cast<const E*>(value);
    E* d = static_cast<E*>(dst);
    for (int64_t i = 0; i < n; ++i) d[i] = v;
    return Status::ok();
  });
}

// Copies all of `src` into `dst` (same dtype and element count).
inline void copy_tensor_data(const Tensor& src, Tensor& dst) {
  copy_elements(src.dtype(), dst.raw(), src.raw(), src.numel());
}

// Views both tensors as [outer, axis, inner] and copies, for every outer index, the
// `count` axis positions starting at src_start into dst starting at dst_start. Concat,
// Split and friends move whole slabs this way.
struct AxisBlock {
  int64_t outer = 1, inner = 1;   // products of the dims before and after the axis
  int64_t src_axis = 0, dst_axis = 0;  // axis lengths of source and destination
};
// outer and inner of `shape` around `axis`, with both axis lengths set to shape[axis].
inline AxisBlock axis_block(const std::vector<int64_t>& shape, size_t axis) {
  AxisBlock b;
  for (size_t d = 0; d < axis; ++d) b.outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) b.inner *= shape[d];
  b.src_axis = b.dst_axis = shape[axis];
  return b;
}
inline void copy_axis_block(DataType dt, const AxisBlock& b, void* dst, int64_t dst_start,
                            const void* src, int64_t src_start, int64_t count) {
  const size_t esize = dtype_size(dt);
  auto* d = static_cast<std::byte*>(dst);
  const auto* s = static_cast<const std::byte*>(src);
  for (int64_t o = 0; o < b.outer; ++o) {
    const int64_t di = (o * b.dst_axis + dst_start) * b.inner;
    const int64_t si = (o * b.src_axis + src_start) * b.inner;
    copy_elements(dt, d + static_cast<size_t>(di) * esize, s + static_cast<size_t>(si) * esize,
                  count * b.inner);
  }
}

// Advances a row-major multi-index over `shape` (an n-d loop's odometer); returns
// false after the last index.
inline bool next_index(std::vector<int64_t>& idx, const std::vector<int64_t>& shape) {
  for (size_t d = idx.size(); d-- > 0;) {
    if (++idx[d] < shape[d]) return true;
    idx[d] = 0;
  }
  return false;
}

// Row-major element strides of a shape.
std::vector<int64_t> row_major_strides(const std::vector<int64_t>& shape);

// dst (contiguous, row-major over `shape`) receives src[sum(i[d] * src_strides[d])] for
// every index i. Strides are in elements and may be zero (broadcast) or negative when
// `src` points at the element reached by the all-zero index.
Status copy_strided(DataType dt, void* dst, const void* src, const std::vector<int64_t>& shape,
                    const std::vector<int64_t>& src_strides);

// dst has one dimension per entry of `maps`; output index i reads the source element
// whose coordinate along axis d is maps[d][i[d]] (src is contiguous with `src_shape`).
// A coordinate of -1 means "outside the source": the element is `fill` (one element of
// the same dtype), which must then be non-null. Serves Slice, Tile, Pad, nearest Resize.
Status gather_by_axis_maps(DataType dt, void* dst, const void* src,
                           const std::vector<int64_t>& src_shape,
                           const std::vector<std::vector<int64_t>>& maps, const void* fill);

}  // namespace twinrt::tensor_ops
