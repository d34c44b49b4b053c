// Turning index tensors into checked flat offsets, shared by the Gather and Scatter
// families. Every index is validated here, so the kernels never read or write out of
// bounds whatever the index tensor holds.
#pragma once

#include <cstdint>
#include <vector>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::tensor_ops {

// Index tensors must be int32 or int64.
Status check_indices_dtype(const Tensor& indices, const char* op);

// GatherElements/ScatterElements: indices have data's rank and fit inside data on
// every axis but `axis`.
Status check_element_shapes(const Tensor& data, const Tensor& indices, int64_t axis, const char* op);

// The flat data offset each index refers to: position in `indices_shape` with its
// coordinate along `axis` replaced by the (checked) index value.
Result<std::vector<int64_t>> element_offsets(const Tensor& data, const std::vector<int64_t>& indices_shape,
                                             const std::vector<int64_t>& idx, int64_t axis, const char* what);

// GatherND/ScatterND: each row of `indices` (its last dim, k long) addresses a slice of
// data[batch..., i0, ..., ik-1, :]; the first `batch_dims` dims of data and indices match.
struct NdSlices {
  std::vector<int64_t> offsets;  // flat data offset of each addressed slice
  int64_t slice_size = 1;        // elements per slice: product of data.shape[batch_dims + k:]
  std::vector<int64_t> out_shape;  // indices.shape[:-1] + data.shape[batch_dims + k:]
};
Result<NdSlices> nd_slices(const Tensor& data, const Tensor& indices, int64_t batch_dims, const char* op);

}  // namespace twinrt::tensor_ops
