// Tiling and threading for im2col convolutions (Conv, ConvInteger, QLinearConv).
//
// The output of image n, group g is a matrix product W_g (out channels x taps) times the
// im2col matrix (taps x positions). It is cut into tiles of output channels x positions;
// each tile is computed whole by one call, so results do not depend on the thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/ref/gemm_ref.h"
#include "kernels/ref/im2col_ref.h"
#include "ops/nn/window.h"
#include "runtime/thread_pool.h"

namespace twinrt::nn {

struct ConvPlan {
  int64_t batch = 0, in_channels = 0, out_channels = 0, group = 1;
  WindowGeometry window;

  int64_t in_per_group() const { return in_channels / group; }
  int64_t out_per_group() const { return out_channels / group; }
  int64_t taps() const { return in_per_group() * window.kernel_size(); }  // rows of the im2col matrix
  // A 1x1 window with stride 1 and no padding: the image already is its im2col matrix.
  bool is_pointwise() const;
};

// Checks X [N, C, spatial...] against W [M, C/group, kernel...] and resolves the window.
Result<ConvPlan> make_conv_plan(const WindowAttrs& attrs, int64_t group, const std::vector<int64_t>& x_shape,
                                const std::vector<int64_t>& w_shape);

// Output shape [N, M, out...] from symbolic X and W shapes (unknown dims where needed).
std::optional<ir::Shape> conv_output_shape(const WindowAttrs& attrs, const ir::Shape* x, const ir::Shape* w);

// Positions per im2col tile: a multiple of 8 that keeps the tile (taps x positions) in
// cache, evened out over the tiles. 8-bit tiles get twice the elements of float ones (half
// the bytes): with deep windows (3x3 over 512 channels: 4608 taps) 64K elements left 8
// positions per tile, so every 8 positions re-read all the weights and paid the per-call
// costs; the block size changes no result (each output is one call's full sum).
template <class T>
int64_t conv_position_block(int64_t positions, int64_t taps) {
  constexpr int64_t kColElems = sizeof(T) == 1 ? 128 * 1024 : 64 * 1024;
  const int64_t most = std::max<int64_t>(8, kColElems / std::max<int64_t>(taps, 1) / 8 * 8);
  if (sizeof(T) != 1) return std::min(positions, most);
  const int64_t tiles = (positions + most - 1) / most;
  return std::min(positions, ((positions + tiles - 1) / tiles + 7) / 8 * 8);
}

// Calls block(n, g, m0, rows, p0, cols, col, ldb) for every tile: output channels
// [m0, m0+rows) of group g (relative to the group), positions [p0, p0+cols) of image n;
// `col` points at the tile's im2col matrix (taps x cols, row stride ldb).
template <class T, class Block>
void for_each_conv_tile(ThreadPool& pool, const ConvPlan& plan, const T* x, T pad, Block&& block) {
  const int64_t positions = plan.window.out_size(), taps = plan.taps(), mg = plan.out_per_group();
  const int64_t in_size = plan.window.in_size();
  const bool pointwise = plan.is_pointwise();
  if (positions == 0 || mg == 0 || plan.batch == 0) return;
  const int64_t pos_block = pointwise ? positions : conv_position_block<T>(positions, taps);
  const int64_t pos_tiles = (positions + pos_block - 1) / pos_block;
  const int64_t outer = plan.batch * plan.group * pos_tiles;
  const int64_t want = pool.size() > 1 ? int64_t{pool.size()} * 4 : 1;
  constexpr int64_t kRowStep = kernels::kGemmRowMultiple;
  const int64_t row_tiles = outer >= want ? 1 : std::min((want + outer - 1) / outer, (mg + kRowStep - 1) / kRowStep);
  const int64_t rows = ((mg + row_tiles - 1) / row_tiles + kRowStep - 1) / kRowStep * kRowStep;
  const int64_t row_count = (mg + rows - 1) / rows;
  const kernels::ImageWindow win = plan.window.image();
  pool.parallel_for(outer * row_count, 1, [&](int64_t begin, int64_t end) {
    // Kept per thread and only grown: a fresh buffer per call was zeroed (and, at this
    // size, fresh pages) before im2col overwrote it.
    thread_local std::vector<T> col;
    int64_t built = -1;  // which (image, group, position tile) `col` holds
    for (int64_t t = begin; t < end; ++t) {
      const int64_t key = t / row_count, mi = t % row_count;
      const int64_t pi = key % pos_tiles, ng = key / pos_tiles;
      const int64_t g = ng % plan.group, n = ng / plan.group;
      const int64_t p0 = pi * pos_block, cols = std::min(pos_block, positions - p0);
      const T* image = x + (n * plan.in_channels + g * plan.in_per_group()) * in_size;
      const T* tile = image + p0;
      int64_t ldb = in_size;
      if (!pointwise) {
        if (built != key) {
          col.resize(std::max(col.size(), static_cast<size_t>(taps * cols)));
          kernels::im2col(win, image, plan.in_per_group(), p0, cols, pad, col.data(), cols);
          built = key;
        }
        tile = col.data();
        ldb = cols;
      }
      const int64_t m0 = mi * rows;
      block(n, g, m0, std::min(rows, mg - m0), p0, cols, tile, ldb);
    }
  });
}

}  // namespace twinrt::nn
