#include "ops/nn/conv_winograd.h"

#include <algorithm>
#include <atomic>
#include <vector>

#include "kernels/conv/f32_winograd.h"
#include "kernels/cpu/cache_size.h"
#include "ops/nn/conv_rows.h"
#include "ops/nn/fused_epilogue.h"
#include "ops/nn/thread_scratch.h"
#include "runtime/whole_tasks.h"

namespace twinrt::nn {
namespace {

// Below this many input or output channels the transforms cost more than the multiplies
// they save. The input channels are the depth of every transformed product: at 16 the
// direct product (depth 144) ran SqueezeNet's 16 -> 64 layer at 55 x 55 in 0.35 ms against
// Winograd's 0.60, a 16 -> 16 one at 160 x 160 in 0.64 against 0.95 (1 thread, AVX-512).
constexpr int64_t kMinInChannels = 32;
constexpr int64_t kMinOutChannels = 16;
// Transformed input and products of a band of block rows, where U is small (see band_rows_for).
constexpr int64_t kBandBytes = 1 << 20;
// What reading one transformed weight from memory costs, in multiply-adds: 4 bytes at
// about 20 GB/s against about 56 G multiply-adds/s on one core (Zen 4, AVX-512). U is
// read once per band, and every layer's weights come from memory in a model.
constexpr int64_t kWeightReadCost = 12;

// What the transforms cost per point of a block and input channel, in multiply-adds (fitted
// to 3x3 convolutions of 128 channels to 32, AVX-512: at 7 x 7 the direct grid product was
// 22% faster, at 14 x 14 5%, at 28 x 28 Winograd 15-25%). The output transform is not
// counted: with more output than input channels (SqueezeNet's 64 -> 256 at 13 x 13,
// GoogLeNet's at 7 x 7) Winograd was 8-12% faster over the whole model.
constexpr int64_t kTransformCost = 64;

// The transformed input and the products of a band; the row buffers of one transform call;
// an output channel's products gathered from M^T.
struct WinogradBand;
struct WinogradRows;
struct WinogradColumn;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t round_up(int64_t n, int64_t step) { return ceil_div(n, step) * step; }

// The distance between two points' V (or M) matrices: `floats`, plus one cache line where
// that is a multiple of 4 KB. The transforms write (and read) all the points' matrices at
// once, and 36 streams 4 KB apart fall in the same L1 sets: DenseNet's 128 -> 32 layer at
// 56 x 56 (V 24 KB per point) ran 1.61 ms before that line and 1.25 ms with it.
int64_t spread_stride(int64_t floats) { return floats % 1024 == 0 ? floats + 16 : floats; }

// Block rows per band: bands whose transforms (input and products) stay in cache between
// the three steps (the whole 56 x 56 image of 64 channels took 6.4 MB and ran slower than
// the direct convolution), as even as the rows allow. Every band reads all of U again, so
// where U is larger than the whole image's transforms a band may fill L2 (256 channels at
// 14 x 14: U is 4 MB, read from memory; on the Xeon VM's 2 MiB L2 one band instead of two,
// 0.90-0.92x at 1 and 2 threads; 128 at 28 x 28 0.94-0.95x), and where it is more than twice
// as large the image is one band: several bands at several threads run one per thread, each
// thread reading all of U, which then comes from memory twice as fast as one core reads it
// (on the Zen 5 VM with its 1 MiB L2, ResNet-50's 256-channel layers at 14 x 14, U 4.2 MB
// against 1.6 MB of transforms, at 2 threads: 0.79-0.87x per node; at 1 thread 16 chained
// ones 0.94x. Its 128-channel layers at 28 x 28, 2.4 against 1.8 MB, ran 1.16-1.19x slower
// as one band).
int64_t band_rows_for(int points, int64_t in_channels, int64_t out_channels, int64_t blocks_w, int64_t blocks_h) {
  const int64_t row_bytes = points * (in_channels + out_channels) * blocks_w * int64_t{sizeof(float)};
  const int64_t u_bytes = points * in_channels * out_channels * int64_t{sizeof(float)};
  if (u_bytes >= 2 * row_bytes * blocks_h) return blocks_h;
  const int64_t budget = u_bytes >= row_bytes * blocks_h ? std::max(kBandBytes, kernels::l2_cache_bytes()) : kBandBytes;
  const int64_t most = std::clamp<int64_t>(budget / row_bytes, 1, blocks_h);
  return ceil_div(blocks_h, ceil_div(blocks_h, most));
}

// The cost of a layout per input channel, in multiply-adds: the tile lanes its products
// compute (each band's blocks fill whole panels, and so do the output channels), and the
// reads of U, once per band.
int64_t layout_cost(const kernels::F32GemmKernel& tile, WinogradLayout layout, int64_t in, int64_t out,
                    int64_t out_h, int64_t out_w) {
  const int points = kernels::winograd_points(layout.tile);
  const int64_t bw = ceil_div(out_w, layout.tile), bh = ceil_div(out_h, layout.tile);
  const int64_t band = band_rows_for(points, in, out, bw, bh);
  const int64_t block_width = layout.v_width(tile), channel_lanes = round_up(out, layout.u_width(tile));
  int64_t cost = 0;
  for (int64_t first = 0; first < bh; first += band)
    cost += points * (round_up(std::min(band, bh - first) * bw, block_width) * channel_lanes + kWeightReadCost * out);
  return cost;
}

// The direct product along the phase planes' grid (ops/nn/conv_rows.h), per input channel:
// the tiles over out_h rows of out_w + 2 positions, and the weights' reads.
int64_t grid_cost(const kernels::F32GemmKernel& tile, int64_t out, int64_t out_h, int64_t out_w) {
  constexpr int64_t kTaps = 9;
  return round_up(out, tile.mr) * round_up(out_h * (out_w + 2), tile.nr) * kTaps + kWeightReadCost * kTaps * out;
}

// Whether the grid product (conv_rows.h) computes this convolution for less than Winograd.
bool grid_is_cheaper(const kernels::F32GemmKernel& tile, WinogradLayout layout, int64_t in, int64_t out,
                     int64_t out_h, int64_t out_w) {
  if (out_w > tile.nr || !conv_grid_input_fits(in * (out_h + 2) * (out_w + 2))) return false;
  const int64_t blocks = ceil_div(out_h, layout.tile) * ceil_div(out_w, layout.tile);
  const int64_t winograd = layout_cost(tile, layout, in, out, out_h, out_w) +
                           kTransformCost * kernels::winograd_points(layout.tile) * blocks;
  return grid_cost(tile, out, out_h, out_w) <= winograd;
}

// The layout for an out_h x out_w output. The blocks go as rows only where that costs a
// quarter less (gathering M^T's columns back into planes is not free), and F(4x4) only
// where it costs a fifth less than F(2x2) (its transforms take twice the work per output).
WinogradLayout choose_layout(const kernels::F32GemmKernel& tile, int64_t in, int64_t out, int64_t out_h,
                             int64_t out_w) {
  const auto best_of_tile = [&](int t) {
    const WinogradLayout columns{t, false}, rows{t, true};
    const int64_t by_columns = layout_cost(tile, columns, in, out, out_h, out_w);
    const int64_t by_rows = layout_cost(tile, rows, in, out, out_h, out_w);
    return 4 * by_rows <= 3 * by_columns ? std::pair{rows, by_rows} : std::pair{columns, by_columns};
  };
  const auto [small, small_cost] = best_of_tile(2);
  const auto [large, large_cost] = best_of_tile(4);
  return 5 * large_cost <= 4 * small_cost ? large : small;
}

}  // namespace

Result<WinogradWeights> pack_winograd_weights(const Tensor* w, const WindowAttrs& attrs, int64_t group,
                                              const KernelInit& init, const kernels::F32GemmKernel& tile) {
  const auto all_ones = [](const std::vector<int64_t>& values) {
    return std::all_of(values.begin(), values.end(), [](int64_t v) { return v == 1; });
  };
  if (!w || init.mode != Mode::kDefault || !init.value_changing_kernels || group != 1 || w->dtype() != DataType::kFloat || w->rank() != 4 ||
      w->dim(2) != 3 || w->dim(3) != 3 || w->dim(0) < kMinOutChannels || w->dim(1) < kMinInChannels ||
      !all_ones(attrs.strides) || !all_ones(attrs.dilations))
    return WinogradWeights{};
  const int64_t out = w->dim(0), in = w->dim(1);
  WinogradWeights weights;
  const ir::Shape w_shape = ir::shape_of(w->shape());
  const ir::Shape* x_shape = !init.input_types.empty() && init.input_types[0].shape ? &*init.input_types[0].shape : nullptr;
  if (const std::optional<ir::Shape> y = conv_output_shape(attrs, x_shape, &w_shape);
      y && y->size() == 4 && (*y)[2].known() && (*y)[3].known()) {
    const int64_t out_h = (*y)[2].value, out_w = (*y)[3].value;
    weights.layout = choose_layout(tile, in, out, out_h, out_w);
    if (grid_is_cheaper(tile, weights.layout, in, out, out_h, out_w)) return WinogradWeights{};
  }
  const int points = kernels::winograd_points(weights.layout.tile);
  ASSIGN_OR_RETURN(Tensor u, Tensor::create(DataType::kFloat, {points * out * in}));
  kernels::f32_winograd_weights(w->data<float>(), out, in, weights.layout.tile, u.data<float>());
  ASSIGN_OR_RETURN(weights.u, pack_f32_constant(u, WidenedConstant{}, points, out, in, in, 1,
                                                weights.layout.u_width(tile)));
  weights.u.source = w->raw();  // the panels stand for W itself
  return weights;
}

bool winograd_applies(const ConvPlan& plan) {
  const WindowGeometry& w = plan.window;
  if (w.rank() != 2 || plan.group != 1) return false;
  for (size_t d = 0; d < 2; ++d)
    if (w.kernel[d] != 3 || w.strides[d] != 1 || w.dilations[d] != 1) return false;
  return true;
}

namespace {

// One convolution's operands and the band size, shared by every band.
struct WinogradRun {
  const kernels::F32GemmKernel& tile;
  const kernels::WinogradTransforms& transforms;
  const ConvPlan& plan;
  kernels::WinogradGeometry g;  // band_first/band_end unset
  int64_t band_rows = 0;
  const float* x = nullptr;
  const float* u_panels = nullptr;
  WinogradLayout layout;
  const float* bias = nullptr;
  const float* residual = nullptr;
  kernels::F32Epilogue clamp;  // only its clamp, min and max
  const ChannelProgram& post;
  float* y = nullptr;

  int64_t bands() const { return (g.blocks_h() + band_rows - 1) / band_rows; }
  // Floats of one V matrix and one M matrix of a full band.
  int64_t v_floats() const {
    kernels::WinogradGeometry first = g;
    first.band_end = band_rows;
    return kernels::winograd_v_floats(first, plan.in_channels, layout.v_width(tile));
  }
  int64_t m_floats() const { return plan.out_channels * band_rows * g.blocks_w(); }
};

// The output channels of one thread's share: whole panels of U, [first, end).
struct ChannelShare {
  int64_t first = 0, end = 0;
};

// Band `band` of image `n`, output channels `share`: the input transform, the products and
// the output transform, each split over `pool`'s threads.
Status run_band(ThreadPool& pool, const WinogradRun& r, int64_t n, int64_t band, ChannelShare share) {
  kernels::WinogradGeometry g = r.g;
  g.band_first = band * r.band_rows;
  g.band_end = std::min(g.blocks_h(), g.band_first + r.band_rows);
  const int64_t in = r.plan.in_channels, out = r.plan.out_channels, width = r.layout.v_width(r.tile);
  const int64_t in_size = r.plan.window.in_size(), out_size = r.plan.window.out_size();
  const int64_t blocks = g.blocks(), v_stride = spread_stride(r.v_floats()), m_stride = spread_stride(r.m_floats());
  // V in panels, M (or M^T) row-major with room for the output transform's last vectors.
  const int points = g.points();
  const int64_t floats = points * (v_stride + m_stride) + r.transforms.lanes;
  const int64_t row_floats = kernels::winograd_scratch(g, r.transforms.lanes).floats;
  float* v = thread_scratch<WinogradBand>(floats);
  if (!v) return out_of_memory("no memory for " + std::to_string(floats * 4) + " bytes of Winograd transforms");
  float* m = v + points * v_stride;
  const float* image = r.x + n * in * in_size;
  std::atomic<bool> no_memory{false};  // a worker's row buffers could not be allocated
  pool.parallel_for(in, 1, [&](int64_t c0, int64_t c1) {
    if (float* scratch = thread_scratch<WinogradRows>(row_floats))
      r.transforms.input(g, image, in, c0, c1, static_cast<int>(width), v, v_stride, scratch);
    else
      no_memory = true;
  });
  if (no_memory) return out_of_memory("no memory for Winograd row buffers");
  const bool as_rows = r.layout.blocks_as_rows;
  const int u_width = r.layout.u_width(r.tile);
  const int64_t u_block = kernels::panel_count(out, u_width) * u_width * in;
  const int64_t channels = share.end - share.first;
  TRY(run_f32_gemms(pool, r.tile, points, [&](int64_t xi) {
    F32Product p;
    p.k = in;
    const float* u = r.u_panels + xi * u_block + share.first * in;  // the share's panels
    const float* vx = v + xi * v_stride;
    if (as_rows) {
      p.m = blocks;
      p.n = channels;
      p.a.packed = vx;
      p.b.packed = u;
      p.c = m + xi * m_stride + share.first;
      p.ldc = out;
    } else {
      p.m = channels;
      p.n = blocks;
      p.a.packed = u;
      p.b.packed = vx;
      p.c = m + xi * m_stride + share.first * blocks;
      p.ldc = blocks;
    }
    return p;
  }));
  const int64_t first_row = g.tile * g.band_first, rows = std::min(g.out_h, g.tile * g.band_end) - first_row;
  // An output channel's rows of products (one per point): in M, or gathered from M^T's column.
  const int64_t column_floats = points * blocks + r.transforms.lanes;
  pool.parallel_for(channels, 1, [&](int64_t c0, int64_t c1) {
    const int64_t o0 = share.first + c0, o1 = share.first + c1;
    float* scratch = thread_scratch<WinogradRows>(row_floats);
    float* column = as_rows ? thread_scratch<WinogradColumn>(column_floats) : nullptr;
    if (!scratch || (as_rows && !column)) {
      no_memory = true;
      return;
    }
    for (int64_t o = o0; o < o1; ++o) {
      kernels::WinogradOutputStep step;
      step.bias = r.bias ? r.bias + o : nullptr;
      step.residual = r.residual ? r.residual + (n * out + o) * out_size : nullptr;
      step.clamp = r.clamp.clamp;
      step.min = r.clamp.min;
      step.max = r.clamp.max;
      float* plane = r.y + (n * out + o) * out_size;
      if (as_rows) {
        for (int64_t xi = 0; xi < points; ++xi)
          for (int64_t b = 0; b < blocks; ++b) column[xi * blocks + b] = m[xi * m_stride + b * out + o];
        r.transforms.output(g, column, blocks, 0, step, plane, scratch);
      } else {
        r.transforms.output(g, m, m_stride, o, step, plane, scratch);
      }
      if (r.post.active()) r.post.apply(plane + first_row * g.out_w, rows * g.out_w, o);
    }
  });
  if (no_memory) return out_of_memory("no memory for Winograd row buffers");
  return Status::ok();
}

}  // namespace

Status run_winograd(ThreadPool& pool, const kernels::F32GemmKernel& tile, const kernels::WinogradTransforms& transforms,
                    const ConvPlan& plan, const float* x, const float* u_panels, WinogradLayout layout, const float* bias,
                    const float* residual, const std::optional<ir::FusedClamp>& clamp, const ChannelProgram& post,
                    float* y) {
  const WindowGeometry& w = plan.window;
  if (w.out_size() == 0) return Status::ok();
  WinogradRun r{tile, transforms, plan, {}, 0, x, u_panels, layout, bias, residual, {}, post, y};
  r.g.tile = layout.tile;
  r.g.in_h = w.in[0];
  r.g.in_w = w.in[1];
  r.g.out_h = w.out[0];
  r.g.out_w = w.out[1];
  r.g.pad_top = w.pad_begin[0];
  r.g.pad_left = w.pad_begin[1];
  set_epilogue_clamp(r.clamp, clamp);
  r.band_rows = band_rows_for(r.g.points(), plan.in_channels, plan.out_channels, r.g.blocks_w(), r.g.blocks_h());
  // How the threads share the work. A band split over the threads step by step waits for
  // all of them three times, and each step reads what the other threads wrote in the step
  // before (ResNet-50 at 2 threads gained nothing from Winograd that way), so natively each
  // thread takes whole bands, its V and M its own.
  // - An image of one band (U large against its transforms: 13 x 13, 14 x 14, 7 x 7) goes
  //   to the threads as shares of the output channels instead, each thread transforming the
  //   whole input into a V of its own, where the layer has at least as many output channels
  //   as input ones (the input transform done twice costs less than the products it shares).
  //   Each thread then reads only its share of U, and writes whole planes: cut into bands of
  //   rows, every plane has two cache lines that both threads write (where the bands meet
  //   and where the next plane starts), and on the Zen 5 VM with its vCPUs on two CCDs the
  //   output transform of SqueezeNet's 64 -> 256 layer at 13 x 13 took 47 us a band against
  //   24 with the second band written elsewhere. Shares: 0.145 against 0.17 ms on that layer
  //   alone, SqueezeNet 0.983x, ResNet-50 0.986x, GoogLeNet 0.996x (2 threads, paired medians
  //   of 8 to 20 rounds); DenseNet-121's 128 -> 32 layers 1.007x, so they keep bands.
  // - Images of several bands keep them: shares of the output channels through all three
  //   steps ran one-layer models faster (SqueezeNet's 32 -> 128 layer at 27 x 27, 2 threads:
  //   0.14 against 0.16 ms), but in a model every thread read the whole input, half of it
  //   written by the other core, and wrote a share of the channels that the next layers read
  //   by positions (1x1 convolutions split C's columns), so half of them from the other core:
  //   SqueezeNet 0.977x, GoogLeNet 0.966x with whole bands for every layer.
  // Not in WebAssembly: in Chromium at 2 threads whole bands made ResNet-50 1.17x slower (not
  // understood; a thread slower than the other would do it, since whole shares cannot be
  // rebalanced); there a band goes whole to a thread only where there are two per thread.
  // Each band and channel is computed the same way on any thread, so the bits do not depend
  // on the thread count.
#if defined(__EMSCRIPTEN__)
  constexpr bool kWholeBands = false;
#else
  constexpr bool kWholeBands = true;
#endif
  const int64_t threads = pool.size(), out = plan.out_channels;
  if (threads > 1 && kWholeBands && plan.batch * r.bands() == 1 && out >= plan.in_channels) {
    const int u_width = layout.u_width(tile);
    const int64_t panels = kernels::panel_count(out, u_width);
    return run_whole_tasks(pool, threads, [&](ThreadPool& serial, int64_t t) {
      const ChannelShare share{std::min(out, panels * t / threads * u_width),
                               std::min(out, panels * (t + 1) / threads * u_width)};
      return share.end > share.first ? run_band(serial, r, 0, 0, share) : Status::ok();
    });
  }
  if (threads > 1 && kWholeBands && plan.batch * r.bands() < threads)
    r.band_rows = std::min(r.band_rows, ceil_div(r.g.blocks_h(), ceil_div(threads, plan.batch)));
  const int64_t bands = r.bands(), tasks = plan.batch * bands;
  if (threads > 1 && (kWholeBands || tasks >= 2 * threads)) {
    return run_whole_tasks(pool, tasks, [&](ThreadPool& serial, int64_t t) {
      return run_band(serial, r, t / bands, t % bands, ChannelShare{0, out});
    });
  }
  for (int64_t t = 0; t < tasks; ++t) TRY(run_band(pool, r, t / bands, t % bands, ChannelShare{0, out}));
  return Status::ok();
}

}  // namespace twinrt::nn
