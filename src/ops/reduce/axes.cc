#include "ops/reduce/axes.h"

namespace twinrt {

Result<int64_t> normalize_axis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return invalid_argument("axis " + std::to_string(axis) + " is out of range for rank " +
                            std::to_string(rank) + " (expected [" + std::to_string(-rank) + ", " +
                            std::to_string(rank - 1) + "])");
  return axis < 0 ? axis + rank : axis;
}

AxisLayout axis_layout(const std::vector<int64_t>& shape, size_t begin, size_t end) {
  AxisLayout l;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d < begin) l.outer *= shape[d];
    else if (d < end) l.n *= shape[d];
    else l.inner *= shape[d];
  }
  return l;
}

Result<std::vector<bool>> reduction_mask(const std::vector<int64_t>& axes, int64_t rank) {
  std::vector<bool> mask(static_cast<size_t>(rank), axes.empty());
  for (int64_t a : axes) {
    ASSIGN_OR_RETURN(int64_t axis, normalize_axis(a, rank));
    if (mask[static_cast<size_t>(axis)])
      return invalid_argument("axis " + std::to_string(a) + " is listed twice in axes");
    mask[static_cast<size_t>(axis)] = true;
  }
  return mask;
}

std::vector<int64_t> reduced_shape(const std::vector<int64_t>& shape, const std::vector<bool>& mask,
                                   bool keepdims) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!mask[d]) out.push_back(shape[d]);
    else if (keepdims) out.push_back(1);
  }
  return out;
}

Result<std::vector<int64_t>> read_int_values(const Tensor& t, const std::string& what) {
  std::vector<int64_t> values;
  if (t.rank() > 1)
    return invalid_argument(what + " must be a scalar or 1-D, got shape " + shape_to_string(t.shape()));
  if (t.dtype() == DataType::kInt64) {
    const int64_t* p = t.data<int64_t>();
    values.assign(p, p + t.numel());
  } else if (t.dtype() == DataType::kInt32) {
    const int32_t* p = t.data<int32_t>();
    values.assign(p, p + t.numel());
  } else {
    return invalid_argument(what + " must be int32 or int64, got " + dtype_name(t.dtype()));
  }
  return values;
}

}  // namespace twinrt
