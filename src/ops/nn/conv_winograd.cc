#include "ops/nn/conv_winograd.h"

#include <algorithm>
#include <atomic>
#include <vector>

#include "kernels/conv/f32_winograd.h"
#include "ops/nn/fused_epilogue.h"
#include "ops/nn/thread_scratch.h"

namespace twinrt::nn {
namespace {

// Below this many input or output channels the transforms cost more than the multiplies
// they save.
constexpr int64_t kMinChannels = 16;
constexpr int kPoints = kernels::kWinogradPoints;
// Transformed input and products of a band of block rows (see run_winograd).
constexpr int64_t kBandBytes = 1 << 20;

// The transformed input and the products of a band; the row buffers of one transform call.
struct WinogradBand;
struct WinogradRows;

}  // namespace

Result<PackedF32> pack_winograd_weights(const Tensor* w, const WindowAttrs& attrs, int64_t group,
                                        const KernelInit& init, int mr) {
  const auto all_ones = [](const std::vector<int64_t>& values) {
    return std::all_of(values.begin(), values.end(), [](int64_t v) { return v == 1; });
  };
  if (!w || init.mode != Mode::kDefault || !init.value_changing_kernels || group != 1 || w->dtype() != DataType::kFloat || w->rank() != 4 ||
      w->dim(2) != 3 || w->dim(3) != 3 || w->dim(0) < kMinChannels || w->dim(1) < kMinChannels ||
      !all_ones(attrs.strides) || !all_ones(attrs.dilations))
    return PackedF32{};
  const int64_t out = w->dim(0), in = w->dim(1);
  ASSIGN_OR_RETURN(Tensor u, Tensor::create(DataType::kFloat, {kPoints * out * in}));
  kernels::f32_winograd_weights(w->data<float>(), out, in, u.data<float>());
  ASSIGN_OR_RETURN(PackedF32 packed, pack_f32_constant(u, WidenedConstant{}, kPoints, out, in, in, 1, mr));
  packed.source = w->raw();  // the panels stand for W itself
  return packed;
}

bool winograd_applies(const ConvPlan& plan) {
  const WindowGeometry& w = plan.window;
  if (w.rank() != 2 || plan.group != 1) return false;
  for (size_t d = 0; d < 2; ++d)
    if (w.kernel[d] != 3 || w.strides[d] != 1 || w.dilations[d] != 1) return false;
  return true;
}

Status run_winograd(ThreadPool& pool, const kernels::F32GemmKernel& tile, const kernels::WinogradTransforms& transforms,
                    const ConvPlan& plan, const float* x,
                    const float* u_panels, const float* bias, const float* residual,
                    const std::optional<ir::FusedClamp>& clamp, const ChannelProgram& post, float* y) {
  const WindowGeometry& w = plan.window;
  kernels::WinogradGeometry g;
  g.in_h = w.in[0];
  g.in_w = w.in[1];
  g.out_h = w.out[0];
  g.out_w = w.out[1];
  g.pad_top = w.pad_begin[0];
  g.pad_left = w.pad_begin[1];
  const int64_t in = plan.in_channels, out = plan.out_channels;
  const int64_t in_size = w.in_size(), out_size = w.out_size();
  if (out_size == 0) return Status::ok();
  // Bands of block rows whose transforms stay in cache between the three steps (the whole
  // 56 x 56 image of 64 channels took 6.4 MB and ran slower than the direct convolution).
  const int64_t row_bytes = kPoints * (in + out) * g.blocks_w() * int64_t{sizeof(float)};
  const int64_t band_rows = std::clamp<int64_t>(kBandBytes / row_bytes, 1, g.blocks_h());
  g.band_end = band_rows;
  // V in panels, M row-major with room for the output transform's last vectors.
  const int64_t v_stride = kernels::winograd_v_floats(g, in, tile.nr), m_stride = out * g.blocks();
  const int64_t floats = kPoints * (v_stride + m_stride) + transforms.lanes;
  const int64_t row_floats = kernels::winograd_scratch_floats(g, transforms.lanes);
  float* v = thread_scratch<WinogradBand>(floats);
  if (!v) return out_of_memory("no memory for " + std::to_string(floats * 4) + " bytes of Winograd transforms");
  float* m = v + kPoints * v_stride;
  kernels::F32Epilogue clamp_bounds;
  set_epilogue_clamp(clamp_bounds, clamp);
  const int64_t u_block = kernels::panel_count(out, tile.mr) * tile.mr * in;
  for (int64_t n = 0; n < plan.batch; ++n) {
    const float* image = x + n * in * in_size;
    for (g.band_first = 0; g.band_first < g.blocks_h(); g.band_first += band_rows) {
      g.band_end = std::min(g.blocks_h(), g.band_first + band_rows);
      const int64_t blocks = g.blocks();
      // The panel columns past the band's last block: the tiles multiply them but never store
      // the results; zeros, so that no stale subnormal slows the multiply-adds.
      const int64_t last_panel = (blocks - 1) / tile.nr * tile.nr, used = blocks - last_panel;
      for (int64_t xi = 0; xi < kPoints; ++xi)
        for (int64_t c = 0; c < in; ++c)
          std::fill_n(v + xi * v_stride + last_panel * in + c * tile.nr + used, tile.nr - used, 0.0f);
      std::atomic<bool> no_memory{false};  // a worker's row buffers could not be allocated
      pool.parallel_for(in, 1, [&](int64_t c0, int64_t c1) {
        if (float* scratch = thread_scratch<WinogradRows>(row_floats))
          transforms.input(g, image, in, c0, c1, tile.nr, v, v_stride, scratch);
        else
          no_memory = true;
      });
      if (no_memory) return out_of_memory("no memory for Winograd row buffers");
      TRY(run_f32_gemms(pool, tile, kPoints, [&](int64_t xi) {
        F32Product p;
        p.m = out;
        p.n = blocks;
        p.k = in;
        p.a.packed = u_panels + xi * u_block;
        p.b.packed = v + xi * v_stride;
        p.c = m + xi * m_stride;
        p.ldc = blocks;
        return p;
      }));
      const int64_t first_row = 2 * g.band_first, rows = std::min(g.out_h, 2 * g.band_end) - first_row;
      pool.parallel_for(out, 1, [&](int64_t o0, int64_t o1) {
        float* scratch = thread_scratch<WinogradRows>(row_floats);
        if (!scratch) {
          no_memory = true;
          return;
        }
        for (int64_t o = o0; o < o1; ++o) {
          kernels::WinogradOutputStep step;
          step.bias = bias ? bias + o : nullptr;
          step.residual = residual ? residual + (n * out + o) * out_size : nullptr;
          step.clamp = clamp_bounds.clamp;
          step.min = clamp_bounds.min;
          step.max = clamp_bounds.max;
          float* plane = y + (n * out + o) * out_size;
          transforms.output(g, m, m_stride, o, step, plane, scratch);
          if (post.active()) post.apply(plane + first_row * g.out_w, rows * g.out_w, o);
        }
      });
      if (no_memory) return out_of_memory("no memory for Winograd row buffers");
    }
  }
  return Status::ok();
}

}  // namespace twinrt::nn
