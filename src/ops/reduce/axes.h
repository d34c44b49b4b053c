// Axis arguments shared by the reductions, ArgMax/ArgMin, CumSum, Softmax and the losses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt {

// `axis` in [-rank, rank) made non-negative, or an error naming it.
Result<int64_t> normalize_axis(int64_t axis, int64_t rank);

// A shape seen as [outer, n, inner] around one axis (or around a run of axes).
struct AxisLayout {
  int64_t outer = 1;
  int64_t n = 1;
  int64_t inner = 1;
};
// Dims [0, begin) are outer, [begin, end) are n, [end, rank) are inner.
AxisLayout axis_layout(const std::vector<int64_t>& shape, size_t begin, size_t end);
inline AxisLayout axis_layout(const std::vector<int64_t>& shape, int64_t axis) {
  return axis_layout(shape, static_cast<size_t>(axis), static_cast<size_t>(axis) + 1);
}

// Which dims `axes` reduces (negative axes allowed, duplicates rejected). Empty axes
// reduce every dim.
Result<std::vector<bool>> reduction_mask(const std::vector<int64_t>& axes, int64_t rank);

// `shape` with the masked dims removed, or set to 1 when `keepdims`.
std::vector<int64_t> reduced_shape(const std::vector<int64_t>& shape, const std::vector<bool>& mask,
                                   bool keepdims);

// The values of an int32/int64 tensor (axes, axis inputs), or an error naming `what`.
Result<std::vector<int64_t>> read_int_values(const Tensor& t, const std::string& what);

}  // namespace twinrt
