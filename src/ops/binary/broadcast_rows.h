// Walks the broadcast of N inputs as rows: the output (or iteration space) is split
// into rows of `row_len` contiguous elements, and along a row each input either advances
// with the output (step 1) or repeats one element (step 0). Adjacent dimensions that
// broadcast the same way are merged first, so equal shapes give one long row, a scalar
// gives step 0, and a trailing-dims broadcast (bias add) gives long rows too.
//
// Rows are visited in row-major order, so a reduction that walks its input with this
// (output as the step-0 "input") sees each output's elements in a fixed order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "runtime/thread_pool.h"

namespace twinrt {

class BroadcastRows {
 public:
  // `out_shape` must be the broadcast of `in_shapes` (the caller checks that).
  BroadcastRows(const std::vector<int64_t>& out_shape,
                const std::vector<std::vector<int64_t>>& in_shapes);

  int64_t rows() const { return rows_; }
  int64_t row_len() const { return row_len_; }
  // 1 when input k advances along a row, 0 when it repeats one element.
  int64_t step(size_t k) const { return steps_[k]; }

  // Calls fn(out_offset, in_offsets) for rows [begin, end), where in_offsets[k] is the
  // element of input k at the start of the row.
  template <class F>
  void visit(int64_t begin, int64_t end, F&& fn) const;

 private:
  std::vector<int64_t> outer_dims_;                  // merged dims before the row
  std::vector<std::vector<int64_t>> outer_strides_;  // [input][outer dim]
  std::vector<int64_t> steps_;
  int64_t rows_ = 0;
  int64_t row_len_ = 1;
};

template <class F>
void BroadcastRows::visit(int64_t begin, int64_t end, F&& fn) const {
  if (begin >= end) return;  // also keeps an empty outer dim out of the % below
  const size_t n_in = steps_.size();
  const size_t rank = outer_dims_.size();
  std::vector<int64_t> idx(rank, 0), off(n_in, 0);
  int64_t rest = begin;
  for (size_t d = rank; d-- > 0;) {
    idx[d] = rest % outer_dims_[d];
    rest /= outer_dims_[d];
    for (size_t k = 0; k < n_in; ++k) off[k] += idx[d] * outer_strides_[k][d];
  }
  for (int64_t r = begin; r < end; ++r) {
    fn(r * row_len_, static_cast<const int64_t*>(off.data()));
    for (size_t d = rank; d-- > 0;) {
      ++idx[d];
      for (size_t k = 0; k < n_in; ++k) off[k] += outer_strides_[k][d];
      if (idx[d] < outer_dims_[d]) break;
      for (size_t k = 0; k < n_in; ++k) off[k] -= outer_strides_[k][d] * idx[d];
      idx[d] = 0;
    }
  }
}

// About this many elements per parallel task: below it, threading costs more than it saves.
inline constexpr int64_t kElementsPerTask = 1 << 15;

// Visits all rows, split across the pool. Only for ops whose rows write disjoint outputs.
template <class F>
void for_each_row_parallel(const BroadcastRows& plan, ThreadPool& pool, F&& fn) {
  const int64_t grain = std::max<int64_t>(1, kElementsPerTask / std::max<int64_t>(plan.row_len(), 1));
  pool.parallel_for(plan.rows(), grain, [&](int64_t begin, int64_t end) { plan.visit(begin, end, fn); });
}

// Visits all rows in blocks of at most `block` elements, split across the pool by (row,
// block) pairs so that one long row still spreads over the threads: fn(out_offset,
// in_offsets, at, n) for the n elements from `at` on in the row whose offsets these are.
template <class F>
void for_each_row_block_parallel(const BroadcastRows& plan, ThreadPool& pool, int64_t block, F&& fn) {
  const int64_t row_len = plan.row_len();
  if (plan.rows() == 0 || row_len == 0) return;
  const int64_t blocks_per_row = (row_len + block - 1) / block;
  pool.parallel_for(plan.rows() * blocks_per_row, std::max<int64_t>(1, kElementsPerTask / block),
                    [&](int64_t begin, int64_t end) {
    const int64_t first_row = begin / blocks_per_row, last_row = (end - 1) / blocks_per_row;
    plan.visit(first_row, last_row + 1, [&](int64_t out_off, const int64_t* in_off) {
      const int64_t row = out_off / row_len;
      const int64_t b0 = std::max(begin - row * blocks_per_row, int64_t{0});
      const int64_t b1 = std::min(end - row * blocks_per_row, blocks_per_row);
      for (int64_t blk = b0; blk < b1; ++blk) {
        const int64_t at = blk * block;
        fn(out_off, in_off, at, std::min(block, row_len - at));
      }
    });
  });
}

}  // namespace twinrt
