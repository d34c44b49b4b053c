#include "ops/nn/conv_rows.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <vector>

#include "kernels/conv/f32_phase_planes.h"
#include "kernels/cpu/cache_size.h"
#include "ops/nn/fused_epilogue.h"
#include "ops/nn/thread_scratch.h"
#include "runtime/whole_tasks.h"

namespace twinrt::nn {
namespace {

// Blocks of output rows per thread: a thread that is done takes the next.
constexpr int64_t kBlocksPerThread = 6;

struct ConvPhases;  // owner of the split input's thread scratch
struct ConvGridRows;  // owner of a grid task's rows of products

// Floats of an image's group of input planes split into `band`'s rows.
int64_t split_floats(const ConvPlan& plan, const kernels::PhasePlanes& band) {
  return plan.in_per_group() * band.channel_floats();
}

// Rows [row0, row0 + band.rows) of an image's group of input planes split into phase planes
// (band: phase_planes of the window, or it with fewer rows), into `split`, with `tail` zeros
// past the end for the last tiles' reads.
void split_planes(const ConvPlan& plan, const kernels::PhasePlanes& band, int64_t row0, const float* image,
                  int64_t tail, float* split) {
  const int64_t floats = split_floats(plan, band);
  std::fill(split + floats, split + floats + tail, 0.0f);
  kernels::f32_split_phases(plan.window.image(), image, 0, plan.in_per_group() * band.stride_h * band.stride_w, row0,
                            band, split);
}

// Each tap's place in a split of `band`'s rows (kernels/conv/f32_phase_planes.h).
std::vector<int64_t> tap_offsets(const ConvPlan& plan, const kernels::PhasePlanes& band) {
  std::vector<int64_t> offsets(static_cast<size_t>(plan.taps()));
  kernels::phase_tap_offsets(plan.window.image(), plan.in_per_group(), band, offsets.data());
  return offsets;
}

// run(task, split) for every task in [0, count) on `threads`: each thread splits the image
// itself once it has a task, and reads only its own copy. A split made by both threads and
// read whole by each crossed between the cores (on the Zen 5 VM DenseNet's 14 x 14 grid
// layers took 2.6 times as long at 2 threads as at 1). False when out of memory.
bool run_on_own_splits(ThreadPool& threads, int64_t count, const ConvPlan& plan, const kernels::PhasePlanes& pp,
                       const float* image, int64_t tail, const std::function<bool(int64_t, const float*)>& run) {
  ShareClaims claims(count, threads.size());
  std::atomic<bool> ok{true};
  threads.parallel_for(std::min<int64_t>(threads.size(), count), 1, [&](int64_t s0, int64_t s1) {
    for (int64_t slot = s0; slot < s1; ++slot) {
      int64_t task = claims.claim();
      if (task < 0) return;
      float* split = thread_scratch<ConvPhases>(split_floats(plan, pp) + tail);
      if (split) split_planes(plan, pp, 0, image, tail, split);
      for (; split && task >= 0; task = claims.claim())
        if (!run(task, split)) break;
      if (!split || task >= 0) ok = false;
    }
  });
  return ok;
}

// fn(pool, n, g) for every image n and group g. With two of them per thread or more, whole
// ones on each thread: RegNet's grouped 3x3 convolutions (56 groups of 8 channels at 14 x 14)
// spent more time handing each group's pieces to the threads than computing them, 2 threads
// slower than 1.
Status for_each_image_group(ThreadPool& pool, const ConvPlan& plan,
                            const std::function<Status(ThreadPool&, int64_t, int64_t)>& fn) {
  const int64_t count = plan.batch * plan.group;
  if (pool.size() > 1 && count >= 2 * int64_t{pool.size()}) {
    return run_whole_tasks(pool, count,
                           [&](ThreadPool& serial, int64_t i) { return fn(serial, i / plan.group, i % plan.group); });
  }
  for (int64_t n = 0; n < plan.batch; ++n)
    for (int64_t g = 0; g < plan.group; ++g) TRY(fn(pool, n, g));
  return Status::ok();
}

// The tile epilogue's steps (kernels/gemm/f32_gemm.h) on one product, each rounded.
inline float grid_epilogue(float v, const float* bias, const float* residual, const kernels::F32Epilogue& clamp) {
  if (bias) v = v + *bias;
  if (residual) v = v + *residual;
  if (clamp.clamp) {
    v = v < clamp.min ? clamp.min : v;
    v = v > clamp.max ? clamp.max : v;
  }
  return v;
}

// Whether a group's packed weights are small enough to be read again for every block of
// output rows (conv_rows).
bool weights_fit(const ConvPlan& plan, const kernels::F32GemmKernel& tile) {
  const int64_t weight_bytes = kernels::panel_count(plan.out_per_group(), tile.mr) * tile.mr * plan.taps() * 4;
  return 2 * weight_bytes <= kernels::l2_cache_bytes();
}

}  // namespace

bool conv_grid_input_fits(int64_t split_floats) {
  return 2 * split_floats * int64_t{sizeof(float)} <= kernels::l2_cache_bytes();
}

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
  return plan.window.rank() == 2 && !plan.is_pointwise() && plan.window.out[1] > tile.nr && weights_fit(plan, tile);
}

bool conv_grid_applies(const ConvPlan& plan, const kernels::F32GemmKernel& tile) {
  if (plan.window.rank() != 2 || plan.is_pointwise() || plan.window.out[1] > tile.nr) return false;
  const kernels::PhasePlanes pp = kernels::phase_planes(plan.window.image());
  return conv_grid_input_fits(plan.in_per_group() * pp.channel_floats());
}

Status run_conv_rows(ThreadPool& pool, const kernels::F32GemmKernel& tile, const ConvPlan& plan, const float* x,
                     const float* packed_weights, const float* bias, const float* residual,
                     const std::optional<ir::FusedClamp>& clamp, const ChannelProgram& post, float* y) {
  const kernels::ImageWindow win = plan.window.image();
  const kernels::PhasePlanes pp = kernels::phase_planes(win);
  const int64_t cin = plan.in_per_group(), mg = plan.out_per_group(), k = plan.taps();
  const int64_t out_h = win.out[0], out_w = win.out[1], positions = out_h * out_w;
  const int64_t in_size = plan.window.in_size();
  const int64_t m_panels = kernels::panel_count(mg, tile.mr), a_panel = k * tile.mr;
  return for_each_image_group(pool, plan, [&](ThreadPool& threads, int64_t n, int64_t g) -> Status {
    const int64_t per_block = threads.size() * kBlocksPerThread;
    const int64_t rows_per_block = (out_h + per_block - 1) / per_block;
    const int64_t blocks = (out_h + rows_per_block - 1) / rows_per_block;
    // A block splits only the rows its taps read, into its thread's buffer, where its tiles
    // find them in cache: the whole split, made by each thread for itself, was written to
    // memory and read back (a 3 x 224 x 224 stem's took about as long as 1.8 MB of traffic),
    // and 2 threads made it twice. The window's overhang (1-3 rows) is split again by the
    // next block.
    kernels::PhasePlanes band = pp;
    band.rows = rows_per_block + (pp.rows - out_h);
    const std::vector<int64_t> offsets = tap_offsets(plan, band);
    const kernels::F32Epilogue epilogue = conv_epilogue(plan, n, g, bias, residual, clamp);
    float* c = y + (n * plan.out_channels + g * mg) * positions;
    const float* a = packed_weights + g * m_panels * a_panel;
    const float* image = x + (n * plan.in_channels + g * cin) * in_size;
    ShareClaims claims(blocks, threads.size());
    std::atomic<bool> ok{true};
    threads.parallel_for(std::min<int64_t>(threads.size(), blocks), 1, [&](int64_t, int64_t) {
      // A row's last tile reads nr floats from its column on: past the split's end, zeros.
      float* split = thread_scratch<ConvPhases>(split_floats(plan, band) + tile.nr);
      if (!split) {
        ok = false;
        return;
      }
      for (int64_t block; (block = claims.claim()) >= 0;) {
        const int64_t oh0 = block * rows_per_block, oh1 = std::min(out_h, oh0 + rows_per_block);
        split_planes(plan, band, oh0, image, tile.nr, split);
        kernels::F32TileArgs args;
        args.k = k;
        args.b_offsets = offsets.data();
        args.ldc = positions;
        args.epilogue = &epilogue;
        for (int64_t i = 0; i < m_panels; ++i) {
          args.a = a + i * a_panel;
          args.row0 = i * tile.mr;
          args.rows = static_cast<int>(std::min<int64_t>(tile.mr, mg - args.row0));
          for (int64_t oh = oh0; oh < oh1; ++oh)
            for (int64_t ow = 0; ow < out_w; ow += tile.nr) {
              args.b = split + (oh - oh0) * pp.cols + ow;
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
    return ok ? Status::ok() : out_of_memory("no memory for a convolution's phase planes");
  });
}

Status run_conv_grid(ThreadPool& pool, const kernels::F32GemmKernel& tile, const ConvPlan& plan, const float* x,
                     const float* packed_weights, const float* bias, const float* residual,
                     const std::optional<ir::FusedClamp>& clamp, const ChannelProgram& post, float* y) {
  const kernels::ImageWindow win = plan.window.image();
  const kernels::PhasePlanes pp = kernels::phase_planes(win);
  const int64_t cin = plan.in_per_group(), mg = plan.out_per_group(), k = plan.taps();
  const int64_t out_w = win.out[1], positions = win.out[0] * out_w, grid = win.out[0] * pp.cols;
  const int64_t m_panels = kernels::panel_count(mg, tile.mr), a_panel = k * tile.mr;
  // Chunks of whole tiles along the grid: with the row panels, enough tasks for every
  // thread to take more (a chunk of grid rows would end in a partial tile each).
  const int64_t tiles = kernels::panel_count(grid, tile.nr);
  // The output index of the first grid position at or after p whose window does not overhang its row.
  const auto output_at = [&](int64_t p) {
    const int64_t oh = p / pp.cols, ow = p % pp.cols;
    return std::min(positions, ow < out_w ? oh * out_w + ow : (oh + 1) * out_w);
  };
  kernels::F32Epilogue clamp_only;
  set_epilogue_clamp(clamp_only, clamp);
  const std::vector<int64_t> offsets = tap_offsets(plan, pp);
  return for_each_image_group(pool, plan, [&](ThreadPool& threads, int64_t n, int64_t g) -> Status {
    const int64_t want = threads.size() == 1 ? 1 : (threads.size() * kBlocksPerThread + m_panels - 1) / m_panels;
    const int64_t tiles_per_chunk = (tiles + want - 1) / want, chunk = tiles_per_chunk * tile.nr;
    const int64_t chunks = (tiles + tiles_per_chunk - 1) / tiles_per_chunk;
    // The last tile reads nr floats from its position on, and the taps reach past the
    // grid's last row by up to cols - out_w more.
    const float* image = x + (n * plan.in_channels + g * cin) * plan.window.in_size();
    const float* a = packed_weights + g * m_panels * a_panel;
    const int64_t c0 = n * plan.out_channels + g * mg;  // the group's first output plane
    const int64_t tasks = m_panels * chunks;
    const bool ok = run_on_own_splits(threads, tasks, plan, pp, image, tile.nr + pp.cols,
                                      [&](int64_t task, const float* split) {
      float* products = thread_scratch<ConvGridRows>(tile.mr * chunk);
      if (!products) return false;
      kernels::F32TileArgs args;
      args.k = k;
      args.b_offsets = offsets.data();
      args.ldc = chunk;
      const int64_t i = task / chunks, first = task % chunks * chunk, end = std::min(grid, first + chunk);
      args.a = a + i * a_panel;
      args.row0 = i * tile.mr;
      args.rows = static_cast<int>(std::min<int64_t>(tile.mr, mg - args.row0));
      for (int64_t p = first; p < end; p += tile.nr) {
        args.b = split + p;
        args.col0 = p - first;
        args.cols = static_cast<int>(std::min<int64_t>(tile.nr, end - p));
        args.c = products + args.col0;
        tile.tile(args);
      }
      // Into y, with the epilogue; the grid's columns past out_w (windows that overhang
      // the row) are dropped.
      for (int r = 0; r < args.rows; ++r) {
        const int64_t o = args.row0 + r;
        const float* b = bias ? bias + g * mg + o : nullptr;
        float* plane = y + (c0 + o) * positions;
        const float* res = residual ? residual + (c0 + o) * positions : nullptr;
        for (int64_t oh = first / pp.cols; oh * pp.cols < end; ++oh) {
          const int64_t row = oh * pp.cols, ow0 = std::max<int64_t>(0, first - row);
          const int64_t ow1 = std::min(out_w, end - row);
          const float* src = products + r * chunk + row - first;
          for (int64_t ow = ow0; ow < ow1; ++ow)
            plane[oh * out_w + ow] = grid_epilogue(src[ow], b, res ? res + oh * out_w + ow : nullptr, clamp_only);
        }
      }
      const int64_t y0 = output_at(first), y1 = output_at(end);
      if (post.active() && y1 > y0)
        post.apply_rows(y + (c0 + args.row0) * positions + y0, positions, args.rows, y1 - y0, g * mg + args.row0);
      return true;
    });
    return ok ? Status::ok() : out_of_memory("no memory for a convolution's phase planes or rows of products");
  });
}

}  // namespace twinrt::nn
