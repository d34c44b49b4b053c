// The 8-bit NHWC 3x3 convolution with stride and dilation 1 in the exact Winograd form
// (kernels/conv/i8_winograd.h): 16 products per input channel and 2x2 output block instead
// of 36. The output blocks are cut into row chunks; for a chunk, each thread transforms the
// blocks' inputs once (16 int16 rows per block), runs the 16 products of its column block
// with the tier's indirect_i16 tile (one row per block, the weights' U' panels as columns),
// and turns each block's 16 sums into its 2x2 outputs, requantized as conv_nhwc_u8 does.
// Every sum is exact, so the bytes are conv_nhwc_u8's direct ones at any thread count.
#include <algorithm>
#include <vector>

#include "kernels/conv/i8_winograd.h"
#include "ops/quant/conv_nhwc.h"

namespace twinrt::quant {

namespace {

constexpr int kPoints = kernels::kI8WinogradPoints;

// The 16 input pixels of output block `b` (blocks numbered row by row, image by image).
void block_pixels(const NhwcConvShape& s, int64_t blocks_h, int64_t blocks_w, const uint8_t* x, const uint8_t* pad,
                  int64_t b, const uint8_t* (&d)[kPoints]) {
  const int64_t n = b / (blocks_h * blocks_w), ih0 = b / blocks_w % blocks_h * 2 - s.pad_top,
                iw0 = b % blocks_w * 2 - s.pad_left;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int64_t ih = ih0 + i, iw = iw0 + j;
      const bool inside = ih >= 0 && ih < s.in_h && iw >= 0 && iw < s.in_w;
      d[i * 4 + j] = inside ? x + ((n * s.in_h + ih) * s.in_w + iw) * s.channels : pad;
    }
}

}  // namespace

void conv_nhwc_winograd_u8(ThreadPool& pool, const NhwcConvShape& s, const NhwcConvWeights& w, const uint8_t* x,
                           uint8_t x_zero, const int32_t* col_add, const float* multiplier, int32_t y_zero, uint8_t* y,
                           const NhwcResidual* residual) {
  const kernels::I8GemmKernel& kernel = *w.kernel;
  const int mr = kernel.mr, nr = kernel.nr;
  const int64_t c = s.channels, m = w.winograd[0].outer;
  const int64_t blocks_h = (s.out_h + 1) / 2, blocks_w = (s.out_w + 1) / 2, blocks = s.batch * blocks_h * blocks_w;
  if (blocks == 0 || m == 0) return;
  // Chunks of blocks whose transformed inputs take at most about kInputBytes, in even
  // sizes of whole row panels; column blocks whose 16 sums per block take at most about
  // kSumBytes, narrower ones when there are too few chunks to feed the pool. The split
  // changes no result.
  constexpr int64_t kInputBytes = 256 * 1024, kSumBytes = 256 * 1024;
  const int64_t max_rows = std::max<int64_t>(1, kInputBytes / (kPoints * c * 2) / mr) * mr;
  const int64_t chunks = (blocks + max_rows - 1) / max_rows;
  const int64_t chunk_rows = ((blocks + chunks - 1) / chunks + mr - 1) / mr * mr;
  const int64_t col_panels = (m + nr - 1) / nr;
  const int64_t want = pool.size() > 1 ? int64_t{pool.size()} * 4 : 1;
  const int64_t min_col_blocks = std::clamp<int64_t>((want + chunks - 1) / chunks, 1, col_panels);
  const int64_t block_panels = std::clamp<int64_t>(kSumBytes / (kPoints * chunk_rows * nr * 4), 1,
                                                   (col_panels + min_col_blocks - 1) / min_col_blocks);
  const int64_t col_blocks = (col_panels + block_panels - 1) / block_panels;
  const std::vector<uint8_t> pad(static_cast<size_t>(c), x_zero);  // (x_zero - x_zero) * w = 0
  const std::vector<int32_t> zeros(static_cast<size_t>(std::max(mr, nr)), 0);  // col_add comes after the transform
  pool.parallel_for(chunks * col_blocks, 1, [&](int64_t begin, int64_t end) {
    thread_local std::vector<int16_t> v;            // [point][row][c]
    thread_local std::vector<const uint8_t*> rows;  // [point][row] -> v
    thread_local std::vector<int32_t> sums, out;    // [point][row][column of the block], [4][column]
    int64_t filled = -1;                            // the chunk whose transformed inputs v holds
    kernels::I8TileArgs t;
    t.k_groups = c / 4;
    t.row_add = t.col_add = zeros.data();
    for (int64_t item = begin; item < end; ++item) {
      const int64_t chunk = item / col_blocks, cp0 = item % col_blocks * block_panels;
      const int64_t b0 = chunk * chunk_rows, count = std::min(chunk_rows, blocks - b0);
      if (chunk != filled) {
        v.resize(static_cast<size_t>(kPoints * chunk_rows * c));
        rows.resize(static_cast<size_t>(kPoints * chunk_rows));
        for (int64_t r = 0; r < count; ++r) {
          const uint8_t* d[kPoints];
          block_pixels(s, blocks_h, blocks_w, x, pad.data(), b0 + r, d);
          kernels::i8_winograd_input(d, c, v.data() + r * c, chunk_rows * c);
        }
        // Rows past the last block (a partial row panel) read the first block's.
        for (int64_t p = 0; p < kPoints; ++p)
          for (int64_t r = 0; r < chunk_rows; ++r)
            rows[static_cast<size_t>(p * chunk_rows + r)] =
                reinterpret_cast<const uint8_t*>(v.data() + (p * chunk_rows + (r < count ? r : 0)) * c);
        filled = chunk;
      }
      const int64_t c0 = cp0 * nr, c_count = std::min(block_panels * nr, m - c0);
      sums.resize(std::max(sums.size(), static_cast<size_t>(kPoints * chunk_rows * c_count)));
      out.resize(std::max(out.size(), static_cast<size_t>(4 * c_count)));
      t.ldc = c_count;
      for (int p = 0; p < kPoints; ++p)
        for (int64_t j = 0; j * nr < c_count; ++j) {
          t.cols = w.winograd[static_cast<size_t>(p)].panel(cp0 + j);
          t.col_count = static_cast<int>(std::min<int64_t>(nr, c_count - j * nr));
          for (int64_t r0 = 0; r0 < count; r0 += mr) {
            t.row_count = static_cast<int>(std::min<int64_t>(mr, count - r0));
            t.indirect = rows.data() + p * chunk_rows + r0;
            t.c = sums.data() + (p * chunk_rows + r0) * c_count + j * nr;
            kernel.indirect_i16(t);
          }
        }
      for (int64_t r = 0; r < count; ++r) {
        const int64_t b = b0 + r, n = b / (blocks_h * blocks_w), oh0 = b / blocks_w % blocks_h * 2,
                      ow0 = b % blocks_w * 2;
        kernels::i8_winograd_output(sums.data() + r * c_count, chunk_rows * c_count, c_count, col_add + c0, out.data(),
                                    c_count);
        for (int a = 0; a < 2 && oh0 + a < s.out_h; ++a)
          for (int e = 0; e < 2 && ow0 + e < s.out_w; ++e) {
            const int64_t at = ((n * s.out_h + oh0 + a) * s.out_w + ow0 + e) * m + c0;
            kernel.requantize_u8(out.data() + (a * 2 + e) * c_count, c_count, 0, multiplier + c0, 1, y_zero, y + at);
            if (residual) residual->add(y + at, residual->x + at, c_count, residual->params, y + at);
          }
      }
    }
  });
}

}  // namespace twinrt::quant
