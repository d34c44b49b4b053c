// Multidirectional (numpy-style) broadcasting, as ONNX defines it.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/ir.h"
#include "twinrt/status.h"

namespace twinrt {

// The broadcast result of several shapes, or an error naming the clash.
Result<std::vector<int64_t>> broadcast_shapes(const std::vector<std::vector<int64_t>>& shapes);
// The same on symbolic shapes (unknown where it cannot be decided).
ir::Shape broadcast_symbolic(const std::vector<const ir::Shape*>& shapes);

// Element strides of `in` (right-aligned against `out`, 0 on broadcast dims).
std::vector<int64_t> broadcast_strides(const std::vector<int64_t>& in, const std::vector<int64_t>& out);

// Walks every element of `out_shape` in row-major order and gives, for each of N inputs,
// the flat offset of the element it reads. Used by elementwise kernels with broadcasting.
class BroadcastIterator {
 public:
  BroadcastIterator(const std::vector<int64_t>& out_shape,
                    const std::vector<std::vector<int64_t>>& in_shapes);
  // fn(out_index, const int64_t* in_offsets)
  template <class F>
  void for_each(F&& fn) const;

 private:
  std::vector<int64_t> out_shape_;
  std::vector<std::vector<int64_t>> strides_;  // per input, per output dim
  int64_t numel_ = 0;
};

template <class F>
void BroadcastIterator::for_each(F&& fn) const {
  const size_t n_in = strides_.size();
  const size_t rank = out_shape_.size();
  std::vector<int64_t> idx(rank, 0), off(n_in, 0);
  for (int64_t i = 0; i < numel_; ++i) {
    fn(i, off.data());
    for (size_t d = rank; d-- > 0;) {
      ++idx[d];
      for (size_t k = 0; k < n_in; ++k) off[k] += strides_[k][d];
      if (idx[d] < out_shape_[d]) break;
      for (size_t k = 0; k < n_in; ++k) off[k] -= strides_[k][d] * idx[d];
      idx[d] = 0;
    }
  }
}

}  // namespace twinrt
