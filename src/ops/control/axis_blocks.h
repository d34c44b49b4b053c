// Copying blocks of a tensor along one axis: the primitives behind Scan/Loop (slice one
// iteration out, stack iteration outputs) and the sequence ops (split, concat).
//
// A tensor of shape [d0 .. dk .. dn] is viewed as [outer, dk, inner] around axis k, so
// every operation here is a loop of contiguous block copies. String tensors are copied
// element by element (they hold std::string objects); everything else with memcpy.
#pragma once

#include <cstdint>
#include <vector>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt {

// Copies `count` elements of type `dtype` from src[src_index..] to dst[dst_index..].
void copy_elements(DataType dtype, const void* src, int64_t src_index, void* dst,
                   int64_t dst_index, int64_t count);

// Resolves a possibly negative axis against `rank` (valid range [-rank, rank-1]).
Result<int64_t> normalize_axis(int64_t axis, int64_t rank, const char* what);

// Elements [start, start+length) along `axis`. With keep_axis=false (length must be 1)
// the axis is removed from the result's shape.
Result<Tensor> slice_axis(const Tensor& t, int64_t axis, int64_t start, int64_t length,
                          bool keep_axis);

// Concatenates tensors of equal dtype and rank whose dims agree except on `axis`.
Result<Tensor> concat_axis(const std::vector<Tensor>& parts, int64_t axis);

// Stacks equal-shaped tensors along a new axis at `axis` (0..rank). With `reverse`
// the last part comes first. `empty_element_shape` gives the element shape and dtype
// used when there are no parts (the result then has a 0-sized new axis).
Result<Tensor> stack_axis(const std::vector<Tensor>& parts, int64_t axis, bool reverse,
                          DataType empty_dtype, const std::vector<int64_t>& empty_element_shape);

}  // namespace twinrt
