#include "ops/tensor/indexing.h"

#include <string>

#include "ops/tensor/elements.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt::tensor_ops {

Status check_indices_dtype(const Tensor& indices, const char* op) {
  if (indices.dtype() != DataType::kInt32 && indices.dtype() != DataType::kInt64)
    return invalid_argument(std::string(op) + " indices must be int32 or int64, got " +
                            dtype_name(indices.dtype()));
  return Status::ok();
}

Status check_element_shapes(const Tensor& data, const Tensor& indices, int64_t axis, const char* op) {
  bool ok = indices.rank() == data.rank();
  for (int64_t d = 0; ok && d < data.rank(); ++d) ok = d == axis || indices.dim(d) <= data.dim(d);
  if (!ok)
    return invalid_argument(std::string(op) + " indices shape " + shape_to_string(indices.shape()) +
                            " does not fit data shape " + shape_to_string(data.shape()) + " (axis " +
                            std::to_string(axis) + ")");
  return Status::ok();
}

Result<std::vector<int64_t>> element_offsets(const Tensor& data, const std::vector<int64_t>& indices_shape,
                                             const std::vector<int64_t>& idx, int64_t axis, const char* what) {
  const std::vector<int64_t> strides = row_major_strides(data.shape());
  std::vector<int64_t> offsets(idx.size());
  std::vector<int64_t> pos(indices_shape.size(), 0);
  for (size_t i = 0; i < idx.size(); ++i) {
    int64_t off = 0;
    for (size_t d = 0; d < pos.size(); ++d)
      if (static_cast<int64_t>(d) != axis) off += pos[d] * strides[d];
    ASSIGN_OR_RETURN(int64_t k, checked_index(idx[i], data.dim(axis), what));
    offsets[i] = off + k * strides[static_cast<size_t>(axis)];
    next_index(pos, indices_shape);
  }
  return offsets;
}

Result<NdSlices> nd_slices(const Tensor& data, const Tensor& indices, int64_t batch_dims, const char* op) {
  TRY(check_indices_dtype(indices, op));
  const int64_t r = data.rank(), q = indices.rank(), b = batch_dims;
  const std::string name(op);
  if (q < 1) return invalid_argument(name + " indices must have rank >= 1");
  if (b < 0 || b >= q || b >= r)
    return invalid_argument(name + " batch_dims " + std::to_string(b) + " must be below the ranks of data (" +
                            std::to_string(r) + ") and indices (" + std::to_string(q) + ")");
  const int64_t k = indices.dim(q - 1);
  if (k > r - b)
    return invalid_argument(name + " index rows have " + std::to_string(k) + " coordinates, data has only " +
                            std::to_string(r - b) + " dims after the batch dims");
  for (int64_t d = 0; d < b; ++d)
    if (data.dim(d) != indices.dim(d))
      return invalid_argument(name + " batch dim " + std::to_string(d) + " differs: data " +
                              shape_to_string(data.shape()) + ", indices " + shape_to_string(indices.shape()));
  NdSlices out;
  out.out_shape.assign(indices.shape().begin(), indices.shape().end() - 1);
  for (int64_t d = b + k; d < r; ++d) {
    out.slice_size *= data.dim(d);
    out.out_shape.push_back(data.dim(d));
  }
  const std::vector<int64_t> strides = row_major_strides(data.shape());
  int64_t batch_count = 1, rows_per_batch = 1;
  for (int64_t d = 0; d < b; ++d) batch_count *= indices.dim(d);
  for (int64_t d = b; d < q - 1; ++d) rows_per_batch *= indices.dim(d);
  const int64_t batch_stride = b > 0 ? strides[static_cast<size_t>(b - 1)] : 0;
  ASSIGN_OR_RETURN(auto idx, read_ints(indices, name + " indices"));
  out.offsets.reserve(static_cast<size_t>(batch_count * rows_per_batch));
  const int64_t* row = idx.data();
  for (int64_t batch = 0; batch < batch_count; ++batch) {
    for (int64_t j = 0; j < rows_per_batch; ++j, row += k) {
      int64_t off = batch * batch_stride;
      for (int64_t t = 0; t < k; ++t) {
        ASSIGN_OR_RETURN(int64_t c, checked_index(row[t], data.dim(b + t), name + " index"));
        off += c * strides[static_cast<size_t>(b + t)];
      }
      out.offsets.push_back(off);
    }
  }
  return out;
}

}  // namespace twinrt::tensor_ops
