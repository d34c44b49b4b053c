#include "ops/control/axis_blocks.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace twinrt {
namespace {

int64_t product(const std::vector<int64_t>& dims, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t i = begin; i < end; ++i) p *= dims[i];
  return p;
}

}  // namespace

void copy_elements(DataType dtype, const void* src, int64_t src_index, void* dst,
                   int64_t dst_index, int64_t count) {
  if (count <= 0) return;
  if (dtype == DataType::kString) {
    const auto* s = static_cast<const std::string*>(src) + src_index;
    std::copy(s, s + count, static_cast<std::string*>(dst) + dst_index);
    return;
  }
  const size_t esize = dtype_size(dtype);
  std::memcpy(static_cast<std::byte*>(dst) + static_cast<size_t>(dst_index) * esize,
              static_cast<const std::byte*>(src) + static_cast<size_t>(src_index) * esize,
              static_cast<size_t>(count) * esize);
}

Result<int64_t> normalize_axis(int64_t axis, int64_t rank, const char* what) {
  if (axis < -rank || axis >= rank)
    return invalid_argument(std::string(what) + " " + std::to_string(axis) +
                            " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

Result<Tensor> slice_axis(const Tensor& t, int64_t axis, int64_t start, int64_t length,
                          bool keep_axis) {
  if (axis < 0 || axis >= t.rank())
    return invalid_argument("axis " + std::to_string(axis) + " is out of range for a tensor of shape " +
                            shape_to_string(t.shape()));
  const int64_t dim = t.dim(axis);
  if (start < 0 || length < 0 || start > dim || length > dim - start)
    return invalid_argument("slice [" + std::to_string(start) + ", " + std::to_string(start + length) +
                            ") is outside axis " + std::to_string(axis) + " of shape " +
                            shape_to_string(t.shape()));
  if (!keep_axis && length != 1) return internal_error("slice_axis: dropping an axis of length != 1");
  std::vector<int64_t> shape = t.shape();
  const auto a = static_cast<size_t>(axis);
  const int64_t outer = product(shape, 0, a);
  const int64_t inner = product(shape, a + 1, shape.size());
  if (keep_axis) shape[a] = length;
  else shape.erase(shape.begin() + axis);
  ASSIGN_OR_RETURN(Tensor out, Tensor::create(t.dtype(), std::move(shape)));
  for (int64_t o = 0; o < outer; ++o)
    copy_elements(t.dtype(), t.raw(), (o * dim + start) * inner, out.raw(), o * length * inner,
                  length * inner);
  return out;
}

Result<Tensor> concat_axis(const std::vector<Tensor>& parts, int64_t axis) {
  if (parts.empty()) return invalid_argument("nothing to concatenate");
  const Tensor& first = parts[0];
  if (axis < 0 || axis >= first.rank())
    return invalid_argument("concat axis " + std::to_string(axis) + " is out of range for rank " +
                            std::to_string(first.rank()));
  const auto a = static_cast<size_t>(axis);
  std::vector<int64_t> shape = first.shape();
  shape[a] = 0;
  for (size_t p = 0; p < parts.size(); ++p) {
    const Tensor& t = parts[p];
    bool same = t.dtype() == first.dtype() && t.rank() == first.rank();
    for (size_t d = 0; same && d < shape.size(); ++d) same = d == a || t.dim(static_cast<int64_t>(d)) == first.dim(static_cast<int64_t>(d));
    if (!same)
      return invalid_argument("cannot concatenate " + std::string(dtype_name(t.dtype())) +
                              shape_to_string(t.shape()) + " (part " + std::to_string(p) + ") with " +
                              dtype_name(first.dtype()) + shape_to_string(first.shape()) +
                              " along axis " + std::to_string(axis));
    if (t.dim(axis) > INT64_MAX - shape[a]) return out_of_memory("concatenated axis is too long");
    shape[a] += t.dim(axis);
  }
  const int64_t outer = product(shape, 0, a);
  const int64_t inner = product(shape, a + 1, shape.size());
  const int64_t row = shape[a] * inner;
  ASSIGN_OR_RETURN(Tensor out, Tensor::create(first.dtype(), std::move(shape)));
  int64_t offset = 0;
  for (const Tensor& t : parts) {
    const int64_t block = t.dim(axis) * inner;
    for (int64_t o = 0; o < outer; ++o)
      copy_elements(t.dtype(), t.raw(), o * block, out.raw(), o * row + offset, block);
    offset += block;
  }
  return out;
}

Result<Tensor> stack_axis(const std::vector<Tensor>& parts, int64_t axis, bool reverse,
                          DataType empty_dtype, const std::vector<int64_t>& empty_element_shape) {
  if (parts.empty()) {
    std::vector<int64_t> shape = empty_element_shape;
    if (axis < 0 || axis > static_cast<int64_t>(shape.size()))
      return invalid_argument("stack axis " + std::to_string(axis) + " is out of range");
    shape.insert(shape.begin() + axis, 0);
    return Tensor::create(empty_dtype, std::move(shape));
  }
  const Tensor& first = parts[0];
  if (axis < 0 || axis > first.rank())
    return invalid_argument("stack axis " + std::to_string(axis) + " is out of range for rank " +
                            std::to_string(first.rank()));
  std::vector<int64_t> unit_shape = first.shape();
  unit_shape.insert(unit_shape.begin() + axis, 1);
  std::vector<Tensor> units;
  units.reserve(parts.size());
  for (size_t p = 0; p < parts.size(); ++p) {
    const Tensor& t = parts[reverse ? parts.size() - 1 - p : p];
    if (t.dtype() != first.dtype() || t.shape() != first.shape())
      return invalid_argument("cannot stack " + std::string(dtype_name(t.dtype())) +
                              shape_to_string(t.shape()) + " (part " + std::to_string(p) + ") with " +
                              dtype_name(first.dtype()) + shape_to_string(first.shape()) +
                              ": every part must have the same type and shape");
    ASSIGN_OR_RETURN(Tensor u, t.reshaped(unit_shape));
    units.push_back(std::move(u));
  }
  return concat_axis(units, axis);
}

}  // namespace twinrt
