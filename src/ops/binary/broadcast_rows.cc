#include "ops/binary/broadcast_rows.h"

#include "ops/common/broadcast.h"

namespace twinrt {

BroadcastRows::BroadcastRows(const std::vector<int64_t>& out_shape,
                             const std::vector<std::vector<int64_t>>& in_shapes) {
  const size_t n_in = in_shapes.size();
  std::vector<std::vector<int64_t>> full_strides;
  for (const auto& s : in_shapes) full_strides.push_back(broadcast_strides(s, out_shape));

  // Drop size-1 output dims (they move nothing), then merge each dim into the previous
  // one when every input walks the pair as one run (strides contiguous or both 0).
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> strides(n_in);
  for (size_t d = 0; d < out_shape.size(); ++d) {
    if (out_shape[d] == 1) continue;
    bool mergeable = !dims.empty();
    for (size_t k = 0; k < n_in && mergeable; ++k)
      mergeable = strides[k].back() == full_strides[k][d] * out_shape[d];
    if (mergeable) {
      dims.back() *= out_shape[d];
      for (size_t k = 0; k < n_in; ++k) strides[k].back() = full_strides[k][d];
    } else {
      dims.push_back(out_shape[d]);
      for (size_t k = 0; k < n_in; ++k) strides[k].push_back(full_strides[k][d]);
    }
  }

  steps_.assign(n_in, 0);
  rows_ = 1;
  for (int64_t d : dims) rows_ *= d;  // 0 when the output is empty
  if (!dims.empty()) {
    row_len_ = dims.back();
    rows_ = row_len_ == 0 ? 0 : rows_ / row_len_;
    for (size_t k = 0; k < n_in; ++k) {
      steps_[k] = strides[k].back();  // 0 or 1: see the header
      strides[k].pop_back();
    }
    dims.pop_back();
  }
  outer_dims_ = std::move(dims);
  outer_strides_ = std::move(strides);
}

}  // namespace twinrt
