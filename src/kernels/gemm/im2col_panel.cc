#include "kernels/gemm/im2col_panel.h"

#include <algorithm>
#include <cstring>

namespace twinrt::kernels {
namespace {

// Output positions of one output row inside the panel.
struct Run {
  int64_t oh, ow0;
  int column, length;
};

constexpr int kMaxWidth = 64;  // widest tile kernel panel

void zero(float* p, int64_t n) {
  if (n > 0) std::memset(p, 0, static_cast<size_t>(n) * sizeof(float));
}

// Runs are at most a panel wide (tens of floats): fixed-size chunks the compiler inlines
// as vector moves cost less than a call to memcpy per run.
void copy_short(float* dst, const float* src, int64_t n) {
  int64_t t = 0;
  for (; t + 8 <= n; t += 8) std::memcpy(dst + t, src + t, 8 * sizeof(float));
  for (; t < n; ++t) dst[t] = src[t];
}

}  // namespace

void f32_im2col_panel_2d(const ImageWindow& w, const float* image, int64_t channels, int64_t first, int64_t count,
                         int width, float* panel) {
  const int64_t ih_n = w.in[0], iw_n = w.in[1], ow_n = w.out[1];
  const int64_t kh_n = w.kernel[0], kw_n = w.kernel[1];
  const int64_t sh = w.strides[0], sw = w.strides[1], dh = w.dilations[0], dw = w.dilations[1];
  const int64_t ph = w.pad_begin[0], pw = w.pad_begin[1];
  Run runs[kMaxWidth];
  int run_count = 0;
  for (int col = 0; col < count;) {
    const int64_t pos = first + col;
    Run r{pos / ow_n, pos % ow_n, col, 0};
    r.length = static_cast<int>(std::min<int64_t>(ow_n - r.ow0, count - col));
    runs[run_count++] = r;
    col += r.length;
  }
  float* row = panel;
  for (int64_t c = 0; c < channels; ++c) {
    const float* plane = image + c * ih_n * iw_n;
    for (int64_t kh = 0; kh < kh_n; ++kh) {
      for (int64_t kw = 0; kw < kw_n; ++kw, row += width) {
        for (int i = 0; i < run_count; ++i) {
          const Run& r = runs[i];
          float* dst = row + r.column;
          const int64_t ih = r.oh * sh - ph + kh * dh;
          if (ih < 0 || ih >= ih_n) {
            zero(dst, r.length);
            continue;
          }
          const float* line = plane + ih * iw_n;
          const int64_t iw0 = r.ow0 * sw - pw + kw * dw;
          if (sw == 1) {
            const int64_t lo = std::clamp<int64_t>(-iw0, 0, r.length);
            const int64_t hi = std::clamp<int64_t>(iw_n - iw0, lo, r.length);
            zero(dst, lo);
            copy_short(dst + lo, line + iw0 + lo, hi - lo);
            zero(dst + hi, r.length - hi);
          } else {
            for (int t = 0; t < r.length; ++t) {
              const int64_t iw = iw0 + t * sw;
              dst[t] = iw >= 0 && iw < iw_n ? line[iw] : 0.0f;
            }
          }
        }
        zero(row + count, width - count);
      }
    }
  }
}

}  // namespace twinrt::kernels
