#include "ops/quant/conv_nhwc.h"

#include <algorithm>
#include <vector>

#include "kernels/conv/i8_winograd.h"

namespace twinrt::quant {

std::optional<NhwcConvWeights> pack_nhwc_conv_weights(Isa isa, const Tensor& w, bool unit_steps) {
  if (w.dtype() != DataType::kInt8 || w.rank() != 4 || w.numel() == 0 || w.dim(1) % 4 != 0) return std::nullopt;
  NhwcConvWeights out;
  out.kernel = &kernels::i8_indirect_kernel(isa);
  const int64_t m = w.dim(0), c = w.dim(1), taps = w.dim(2) * w.dim(3), k = taps * c;
  if (unit_steps && out.kernel->indirect_i16 && w.dim(2) == 3 && w.dim(3) == 3 && c <= kernels::kI8WinogradMaxChannels) {
    const int8_t* values = w.data<int8_t>();
    out.winograd = kernels::i8_winograd_weights(values, m, c, out.kernel->nr);
    out.sums.assign(static_cast<size_t>(m), 0);
    for (int64_t i = 0; i < m * k; ++i) out.sums[static_cast<size_t>(i / k)] += values[i];
    return out;
  }
  // [M, C, taps] -> [M, taps, C]: the order the indirect tile walks.
  std::vector<uint8_t> tap_major(static_cast<size_t>(m * k));
  const uint8_t* src = w.data<uint8_t>();
  for (int64_t o = 0; o < m; ++o)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t t = 0; t < taps; ++t) tap_major[static_cast<size_t>(o * k + t * c + ch)] = src[(o * c + ch) * taps + t];
  kernels::i8_pack(tap_major.data(), false, k, 1, 0, m, k, out.kernel->nr, false, out.panels);
  if (out.kernel->arrange_wide_cols) out.kernel->arrange_wide_cols(out.panels);
  out.sums = out.panels.sums;
  return out;
}

std::vector<int32_t> fold_nhwc_bias(const NhwcConvWeights& w, const std::vector<int32_t>& bias, uint8_t x_zero) {
  // Padded to whole panels: the tiles read nr column terms.
  const size_t nr = static_cast<size_t>(w.kernel->nr);
  std::vector<int32_t> out((bias.size() + nr - 1) / nr * nr, 0);
  for (size_t m = 0; m < bias.size(); ++m)
    out[m] = static_cast<int32_t>(static_cast<uint32_t>(bias[m]) - uint32_t{x_zero} * static_cast<uint32_t>(w.sums[m]));
  return out;
}

namespace {

// Byte offset of each tap's input pixel from the window's first pixel, tap-major.
std::vector<int64_t> tap_offsets(const NhwcConvShape& s, int64_t pixel_bytes) {
  std::vector<int64_t> out;
  for (int64_t kh = 0; kh < s.kernel_h; ++kh)
    for (int64_t kw = 0; kw < s.kernel_w; ++kw) out.push_back((kh * s.dilation_h * s.in_w + kw * s.dilation_w) * pixel_bytes);
  return out;
}

// Pointers for one panel of mr output pixels from `p0`: ind[t * mr + r] is tap t's input
// pixel of output pixel p0 + r (the padding row outside the image or past the last pixel),
// pixels `pixel_bytes` apart from x; `offsets` from tap_offsets.
void fill_indirection(const NhwcConvShape& s, const uint8_t* x, int64_t pixel_bytes, const uint8_t* pad,
                      const std::vector<int64_t>& offsets, int64_t p0, int mr, const uint8_t** ind) {
  const int64_t pixels = s.batch * s.out_h * s.out_w, taps = s.taps();
  const int64_t last_h = (s.kernel_h - 1) * s.dilation_h, last_w = (s.kernel_w - 1) * s.dilation_w;
  // The output pixel's coordinates, stepped along (divisions per pixel were a tenth of a
  // 1x1 convolution's time).
  int64_t n = p0 / (s.out_h * s.out_w), oh = p0 / s.out_w % s.out_h, ow = p0 % s.out_w;
  for (int r = 0; r < mr; ++r, ++ow) {
    if (ow == s.out_w) {
      ow = 0;
      if (++oh == s.out_h) oh = 0, ++n;
    }
    const int64_t p = p0 + r;
    const int64_t ih0 = oh * s.stride_h - s.pad_top, iw0 = ow * s.stride_w - s.pad_left;
    if (p < pixels && ih0 >= 0 && ih0 + last_h < s.in_h && iw0 >= 0 && iw0 + last_w < s.in_w) {
      // The whole window is inside: fixed offsets from its first pixel, no test per tap
      // (the tests were 3% of ResNet-50's time).
      const uint8_t* first = x + ((n * s.in_h + ih0) * s.in_w + iw0) * pixel_bytes;
      for (int64_t t = 0; t < taps; ++t) ind[t * mr + r] = first + offsets[static_cast<size_t>(t)];
      continue;
    }
    for (int64_t kh = 0; kh < s.kernel_h; ++kh)
      for (int64_t kw = 0; kw < s.kernel_w; ++kw) {
        const int64_t ih = oh * s.stride_h - s.pad_top + kh * s.dilation_h;
        const int64_t iw = ow * s.stride_w - s.pad_left + kw * s.dilation_w;
        const bool inside = p < pixels && ih >= 0 && ih < s.in_h && iw >= 0 && iw < s.in_w;
        ind[(kh * s.kernel_w + kw) * mr + r] = inside ? x + ((n * s.in_h + ih) * s.in_w + iw) * pixel_bytes : pad;
      }
  }
}

}  // namespace

void conv_nhwc_u8(ThreadPool& pool, const NhwcConvShape& s, const NhwcConvWeights& w, const uint8_t* x, uint8_t x_zero,
                  const int32_t* col_add, const float* multiplier, int32_t y_zero, uint8_t* y,
                  const NhwcResidual* residual) {
  if (!w.winograd.empty()) return conv_nhwc_winograd_u8(pool, s, w, x, x_zero, col_add, multiplier, y_zero, y, residual);
  const kernels::I8GemmKernel& kernel = *w.kernel;
  const kernels::I8Panels& wp = w.panels;
  const int mr = kernel.mr, nr = kernel.nr;
  const int64_t m = wp.outer, taps = s.taps(), groups = s.channels / 4;
  const int64_t pixels = s.batch * s.out_h * s.out_w, row_panels = (pixels + mr - 1) / mr;
  const int64_t col_panels = (m + nr - 1) / nr, panel_bytes = wp.k_groups * nr * 4 * wp.value_bytes;
  if (pixels == 0 || m == 0) return;
  const bool use_7bit = wp.signed_7bit && kernel.indirect_u8_7bit;
  const kernels::I8TileFn tile = use_7bit ? kernel.indirect_u8_7bit : kernel.indirect_u8;
  const bool tile_requantizes = !use_7bit && kernel.indirect_requantizes_u8;
  // Column blocks whose weight panels stay in L2 while every row panel of a chunk passes;
  // narrower ones when there are too few chunks to feed the pool (the 7x7 images of the
  // last stage are one chunk). The split changes no result: each output is one tile's sum.
  constexpr int64_t kWeightBytes = 192 * 1024, kChunkPanels = 16;
  const int64_t chunks = (row_panels + kChunkPanels - 1) / kChunkPanels;
  // Even chunks: 33 panels (14 x 14 pixels) as 11 + 11 + 11, not 16 + 16 + 1, whose tiny
  // last chunk left a thread idle at 2 threads.
  const int64_t chunk_panels = (row_panels + chunks - 1) / chunks;
  const int64_t want = pool.size() > 1 ? int64_t{pool.size()} * 4 : 1;
  const int64_t min_blocks = std::clamp<int64_t>((want + chunks - 1) / chunks, 1, col_panels);
  const int64_t block_panels =
      std::clamp<int64_t>(kWeightBytes / panel_bytes, 1, (col_panels + min_blocks - 1) / min_blocks);
  const int64_t col_blocks = (col_panels + block_panels - 1) / block_panels;
  // A tile that reads 16-bit rows gets the input and the padding row widened once here.
  const int row_bytes = kernel.indirect_row_bytes;
  std::vector<uint16_t> wide;
  if (row_bytes == 2) wide.assign(x, x + s.batch * s.in_h * s.in_w * s.channels);
  const uint8_t* rows = row_bytes == 2 ? reinterpret_cast<const uint8_t*>(wide.data()) : x;
  const int64_t pixel_bytes = s.channels * row_bytes;
  std::vector<uint8_t> pad(static_cast<size_t>(pixel_bytes), 0);  // (x_zero - x_zero) * w = 0
  for (int64_t c = 0; c < s.channels; ++c) pad[static_cast<size_t>(c * row_bytes)] = x_zero;  // little-endian
  const std::vector<int32_t> row_add(static_cast<size_t>(mr), 0);           // weights' zero points are 0
  const std::vector<int64_t> offsets = tap_offsets(s, pixel_bytes);
  pool.parallel_for(chunks * col_blocks, 1, [&](int64_t begin, int64_t end) {
    thread_local std::vector<const uint8_t*> ind;
    thread_local std::vector<int32_t> acc;
    int64_t filled = -1;  // the chunk whose pointers `ind` holds (items run chunk by chunk)
    // One argument block for all tiles, its per-tile fields set in the loop (constructing
    // it per tile zero-filled it with `rep stos` every time).
    kernels::I8TileArgs t;
    t.k_groups = groups;
    t.row_add = row_add.data();
    t.taps = taps;
    t.ldy = m;
    t.y_zero = y_zero;
    for (int64_t item = begin; item < end; ++item) {
      const int64_t chunk = item / col_blocks, cp0 = item % col_blocks * block_panels;
      const int64_t rp0 = chunk * chunk_panels, rp_count = std::min(chunk_panels, row_panels - rp0);
      if (chunk != filled) {
        ind.resize(static_cast<size_t>(rp_count * taps * mr));
        for (int64_t i = 0; i < rp_count; ++i) fill_indirection(s, rows, pixel_bytes, pad.data(), offsets, (rp0 + i) * mr, mr, ind.data() + i * taps * mr);
        filled = chunk;
      }
      acc.resize(std::max(acc.size(), static_cast<size_t>(mr * block_panels * nr)));
      const int64_t c0 = cp0 * nr, c_count = std::min(block_panels * nr, m - c0);
      t.ldc = c_count;
      for (int64_t i = 0; i < rp_count; ++i) {
        const int64_t p0 = (rp0 + i) * mr;
        t.row_count = static_cast<int>(std::min<int64_t>(mr, pixels - p0));
        t.indirect = ind.data() + i * taps * mr;
        for (int64_t j = 0; cp0 + j < col_panels && j < block_panels; ++j) {
          t.cols = wp.panel(cp0 + j);
          t.c = acc.data() + j * nr;
          t.col_count = static_cast<int>(std::min<int64_t>(nr, m - (cp0 + j) * nr));
          t.col_add = col_add + (cp0 + j) * nr;
          if (tile_requantizes) {
            t.y = y + p0 * m + (cp0 + j) * nr;
            t.y_multiplier = multiplier + (cp0 + j) * nr;
          }
          tile(t);
        }
        for (int r = 0; r < t.row_count && !tile_requantizes; ++r)
          kernel.requantize_u8(acc.data() + r * c_count, c_count, 0, multiplier + c0, 1, y_zero, y + (p0 + r) * m + c0);
        if (residual) {  // in place: each element is read before it is written
          // Whole rows are contiguous: one call for the panel (a call per row of 64-256
          // bytes spent a third of the add's time setting up).
          const int64_t rows = c_count == m ? 1 : t.row_count, n = c_count == m ? t.row_count * m : c_count;
          for (int64_t r = 0; r < rows; ++r) {
            uint8_t* row = y + (p0 + r) * m + c0;
            residual->add(row, residual->x + (p0 + r) * m + c0, n, residual->params, row);
          }
        }
      }
    }
  });
}

}  // namespace twinrt::quant
