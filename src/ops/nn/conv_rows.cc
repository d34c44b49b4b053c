#include "ops/nn/conv_rows.h"

#include <algorithm>

#include "ops/nn/f32_gemm_driver.h"
#include "ops/nn/fused_epilogue.h"
#include "ops/nn/thread_scratch.h"

namespace twinrt::nn {
namespace {

// The calling thread's buffers: im2col^T in A panels, and C^T.
struct PositionPanels;
struct TransposedOutput;

// Channels moved per pass over a block of C^T rows: one cache line of each row.
constexpr int64_t kChannelsPerPass = 16;
// What writing one output back from C^T costs, in multiply-adds of the tile (MobileNetV2's
// 1x1 convolutions at 7 x 7, 160 or 320 deep, ran slower transposed at 2 threads).
constexpr int64_t kWriteBackCost = 80;

// Image n, group g of the product.
struct GroupProduct {
  const ConvPlan& plan;
  int64_t n = 0, g = 0;
  const float* ct = nullptr;  // C^T: positions x channels of the group
  const float* residual = nullptr;
  const std::optional<ir::FusedClamp>& clamp;
  const ChannelProgram& post;
  float* y = nullptr;

  // Positions [row0, row0 + rows) x the group's channels [col0, col0 + cols) of C^T into
  // Y's planes, with the residual and the clamp (the tile added the bias).
  void write_back(int64_t row0, int64_t rows, int64_t col0, int64_t cols) const {
    const int64_t mg = plan.out_per_group(), positions = plan.window.out_size();
    const int64_t first_channel = g * mg + col0;
    const int64_t plane0 = (n * plan.out_channels + first_channel) * positions + row0;
    for (int64_t o0 = 0; o0 < cols; o0 += kChannelsPerPass) {
      const int64_t count = std::min(kChannelsPerPass, cols - o0);
      for (int64_t i = 0; i < rows; ++i) {
        const float* from = ct + (row0 + i) * mg + col0 + o0;
        float* to = y + plane0 + o0 * positions + i;
        if (residual) {
          const float* r = residual + plane0 + o0 * positions + i;
          for (int64_t o = 0; o < count; ++o) to[o * positions] = from[o] + r[o * positions];
        } else {
          for (int64_t o = 0; o < count; ++o) to[o * positions] = from[o];
        }
      }
    }
    if (clamp)
      for (int64_t o = 0; o < cols; ++o) clamp_values(*clamp, y + plane0 + o * positions, rows);
    if (post.active()) post.apply_rows(y + plane0, positions, cols, rows, first_channel);
  }
};

}  // namespace

bool positions_as_rows(const kernels::F32GemmKernel& tile, int64_t out_channels, int64_t positions, int64_t taps) {
  const int64_t by_columns = tile.computed_rows(out_channels) * tile.computed_cols(positions) * taps;
  const int64_t by_rows =
      tile.computed_rows(positions) * tile.computed_cols(out_channels) * taps + kWriteBackCost * positions * out_channels;
  return 10 * by_rows <= 9 * by_columns;
}

Status run_conv_positions_as_rows(ThreadPool& pool, const kernels::F32GemmKernel& tile, const ConvPlan& plan,
                                  const float* x, const float* weight_panels, const float* bias,
                                  const float* residual, const std::optional<ir::FusedClamp>& clamp,
                                  const ChannelProgram& post, float* y) {
  const int64_t positions = plan.window.out_size(), taps = plan.taps(), mg = plan.out_per_group();
  const int64_t in_size = plan.window.in_size();
  if (positions == 0 || mg == 0) return Status::ok();
  const int64_t panels = kernels::panel_count(positions, tile.mr), panel_floats = tile.mr * taps;
  // A is made whole before the product, so that the driver may split k (B's panels of a
  // deep window, read from memory, then pass once).
  float* a = thread_scratch<PositionPanels>(panels * panel_floats);
  float* ct = thread_scratch<TransposedOutput>(positions * mg);
  if (!a || !ct)
    return out_of_memory("no memory for " + std::to_string((panels * panel_floats + positions * mg) * 4) +
                         " bytes of a transposed convolution");
  const int64_t weight_block = kernels::panel_count(mg, tile.nr) * tile.nr * taps;
  for (int64_t n = 0; n < plan.batch; ++n)
    for (int64_t g = 0; g < plan.group; ++g) {
      const float* image = x + (n * plan.in_channels + g * plan.in_per_group()) * in_size;
      pool.parallel_for(panels, 1, [&](int64_t begin, int64_t end) {
        if (plan.is_pointwise()) {
          for (int64_t i = begin; i < end; ++i)
            kernels::f32_pack_panel(image, 1, in_size, i * tile.mr, positions, taps, tile.mr, a + i * panel_floats);
        } else {
          f32_im2col_panels(plan, image, begin * tile.mr, end - begin, tile.mr, a + begin * panel_floats);
        }
      });
      const GroupProduct group{plan, n, g, ct, residual, clamp, post, y};
      F32Product p;
      p.m = positions;
      p.n = mg;
      p.k = taps;
      p.a.packed = a;
      p.b.packed = weight_panels + g * weight_block;
      p.c = ct;
      p.ldc = mg;
      if (bias) {
        p.epilogue.bias = bias + g * mg;
        p.epilogue.bias_cs = 1;
      }
      p.after_rows = [&group](int64_t row0, int64_t rows, int64_t col0, int64_t cols) {
        group.write_back(row0, rows, col0, cols);
      };
      TRY(run_f32_gemm(pool, tile, p));
    }
  return Status::ok();
}

}  // namespace twinrt::nn
