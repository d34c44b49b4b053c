#include "ops/nn/conv_rows.h"

#include <algorithm>
#include <vector>

#include "kernels/conv/f32_phase_planes.h"
#include "kernels/cpu/cache_size.h"
#include "ops/nn/fused_epilogue.h"
#include "ops/nn/thread_scratch.h"

namespace twinrt::nn {
namespace {

// Blocks of output rows per thread: a thread that is done takes the next.
constexpr int64_t kBlocksPerThread = 6;

struct ConvPhases;  // owner of the split input's thread scratch

}  // namespace

kernels::F32Epilogue conv_epilogue(const ConvPlan& plan, int64_t n, int64_t g, const float* bias,
                                   const float* residual, const std::optional<ir::FusedClamp>& clamp) {
  const int64_t mg = plan.out_per_group(), positions = plan.window.out_size();
  kernels::F32Epilogue e;
  if (bias) {
    e.bias = bias + g * mg;
    e.bias_rs = 1;
  }
  if (residual) {
    e.residual = residual + (n * plan.out_channels + g * mg) * positions;
    e.residual_rs = positions;
  }
  set_epilogue_clamp(e, clamp);
  return e;
}

bool conv_rows_applies(const ConvPlan& plan, const kernels::F32GemmKernel& tile) {
  if (plan.window.rank() != 2 || plan.is_pointwise() || plan.window.out[1] <= tile.nr) return false;
  const int64_t weight_bytes = kernels::panel_count(plan.out_per_group(), tile.mr) * tile.mr * plan.taps() * 4;
  return 2 * weight_bytes <= kernels::l2_cache_bytes();
}

Status run_conv_rows(ThreadPool& pool, const kernels::F32GemmKernel& tile, const ConvPlan& plan, const float* x,
                     const float* packed_weights, const float* bias, const float* residual,
                     const std::optional<ir::FusedClamp>& clamp, const ChannelProgram& post, float* y) {
  const kernels::ImageWindow win = plan.window.image();
  const kernels::PhasePlanes pp = kernels::phase_planes(win);
  const int64_t cin = plan.in_per_group(), mg = plan.out_per_group(), k = plan.taps();
  const int64_t out_h = win.out[0], out_w = win.out[1], positions = out_h * out_w;
  const int64_t in_size = plan.window.in_size(), planes = cin * pp.stride_h * pp.stride_w;
  const int64_t m_panels = kernels::panel_count(mg, tile.mr), a_panel = k * tile.mr;
  // A row's last tile reads nr floats from its column on: past the split's end, zeros.
  const int64_t split_floats = planes * pp.plane_floats() + tile.nr;
  float* split = thread_scratch<ConvPhases>(split_floats);
  if (!split) return out_of_memory("no memory for " + std::to_string(split_floats * 4) + " bytes of phase planes");
  std::fill(split + planes * pp.plane_floats(), split + split_floats, 0.0f);
  std::vector<int64_t> offsets(static_cast<size_t>(k));
  kernels::phase_tap_offsets(win, cin, offsets.data());
  const int64_t rows_per_block = (out_h + pool.size() * kBlocksPerThread - 1) / (pool.size() * kBlocksPerThread);
  const int64_t blocks = (out_h + rows_per_block - 1) / rows_per_block;
  for (int64_t n = 0; n < plan.batch; ++n)
    for (int64_t g = 0; g < plan.group; ++g) {
      const float* image = x + (n * plan.in_channels + g * cin) * in_size;
      pool.parallel_for(planes, 1, [&](int64_t q0, int64_t q1) { kernels::f32_split_phases(win, image, q0, q1, split); });
      const kernels::F32Epilogue epilogue = conv_epilogue(plan, n, g, bias, residual, clamp);
      float* c = y + (n * plan.out_channels + g * mg) * positions;
      const float* a = packed_weights + g * m_panels * a_panel;
      pool.parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
        kernels::F32TileArgs args;
        args.k = k;
        args.b_offsets = offsets.data();
        args.ldc = positions;
        args.epilogue = &epilogue;
        for (int64_t block = b0; block < b1; ++block) {
          const int64_t oh0 = block * rows_per_block, oh1 = std::min(out_h, oh0 + rows_per_block);
          for (int64_t i = 0; i < m_panels; ++i) {
            args.a = a + i * a_panel;
            args.row0 = i * tile.mr;
            args.rows = static_cast<int>(std::min<int64_t>(tile.mr, mg - args.row0));
            for (int64_t oh = oh0; oh < oh1; ++oh)
              for (int64_t ow = 0; ow < out_w; ow += tile.nr) {
                args.b = split + oh * pp.cols + ow;
                args.col0 = oh * out_w + ow;
                args.cols = static_cast<int>(std::min<int64_t>(tile.nr, out_w - ow));
                args.c = c + args.row0 * positions + args.col0;
                tile.tile(args);
              }
            if (post.active())
              post.apply_rows(c + args.row0 * positions + oh0 * out_w, positions, args.rows, (oh1 - oh0) * out_w,
                              g * mg + args.row0);
          }
        }
      });
    }
  return Status::ok();
}

}  // namespace twinrt::nn
