#include "kernels/gemm/im2col_panel.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace twinrt::kernels {
namespace {

// Where the windows fall for a panel is the same in every channel: it is worked out once
// as segments of a panel row (copies from the plane, or zeros for padding and the columns
// past `count`), which every channel then replays with its own plane.
struct Segment {
  int64_t dst;   // offset in the channel's block of the panel
  int64_t src;   // offset in the channel's plane; -1: zeros
  int64_t step;  // source elements between two columns (the stride)
  int64_t length;
};

constexpr int kMaxWidth = 64;  // widest tile kernel panel

// Segments are at most a panel wide (tens of floats): fixed-size chunks the compiler
// inlines as vector moves cost less than a call to memcpy or memset per segment.
inline __attribute__((always_inline)) void copy_short(float* dst, const float* src, int64_t n) {
  int64_t t = 0;
  for (; t + 8 <= n; t += 8) std::memcpy(dst + t, src + t, 8 * sizeof(float));
  for (; t < n; ++t) dst[t] = src[t];
}

// Every second element (stride-2 windows: MobileNet's and ResNet's stems, the downsampling
// convolutions): with the stride a constant the compiler loads whole vectors and keeps the
// even lanes, where a runtime stride is a scalar load per element.
inline void copy_every_second(float* dst, const float* src, int64_t n) {
  for (int64_t t = 0; t < n; ++t) dst[t] = src[2 * t];
}

constexpr float kZeros[kMaxWidth] = {};

void push(std::vector<Segment>& out, int64_t dst, int64_t src, int64_t step, int64_t length) {
  if (length > 0) out.push_back({dst, src, step, length});
}

// Appends the segments of one channel's rows (kh, kw) for positions [first, first + count).
void plan_segments(const ImageWindow& w, int64_t first, int64_t count, int width, std::vector<Segment>& out) {
  const int64_t ih_n = w.in[0], iw_n = w.in[1], ow_n = w.out[1];
  const int64_t kh_n = w.kernel[0], kw_n = w.kernel[1];
  const int64_t sh = w.strides[0], sw = w.strides[1], dh = w.dilations[0], dw = w.dilations[1];
  const int64_t ph = w.pad_begin[0], pw = w.pad_begin[1];
  int64_t row = 0;
  for (int64_t kh = 0; kh < kh_n; ++kh)
    for (int64_t kw = 0; kw < kw_n; ++kw, row += width) {
      for (int64_t col = 0; col < count;) {
        const int64_t pos = first + col, oh = pos / ow_n, ow0 = pos % ow_n;
        const int64_t length = std::min(ow_n - ow0, count - col);
        const int64_t dst = row + col;
        col += length;
        const int64_t ih = oh * sh - ph + kh * dh;
        if (ih < 0 || ih >= ih_n) {
          push(out, dst, -1, 1, length);
          continue;
        }
        // Columns t in [lo, hi) read iw0 + t * sw inside the line; the others are padding.
        const int64_t iw0 = ow0 * sw - pw + kw * dw;
        const int64_t lo = std::clamp<int64_t>(iw0 >= 0 ? 0 : (-iw0 + sw - 1) / sw, 0, length);
        const int64_t hi = std::clamp<int64_t>(iw0 >= iw_n ? 0 : (iw_n - iw0 + sw - 1) / sw, lo, length);
        push(out, dst, -1, 1, lo);
        push(out, dst + lo, ih * iw_n + iw0 + lo * sw, sw, hi - lo);
        push(out, dst + hi, -1, 1, length - hi);
      }
      push(out, row + count, -1, 1, width - count);
    }
}

// One channel's rows of a panel: copies from its plane, zeros for the padding.
void replay(const Segment* begin, const Segment* end, const float* plane, float* panel) {
  for (const Segment* s = begin; s != end; ++s) {
    float* dst = panel + s->dst;
    if (s->src < 0) {
      copy_short(dst, kZeros, s->length);
    } else if (s->step == 1) {
      copy_short(dst, plane + s->src, s->length);
    } else if (s->step == 2) {
      copy_every_second(dst, plane + s->src, s->length);
    } else {
      for (int64_t t = 0; t < s->length; ++t) dst[t] = plane[s->src + t * s->step];
    }
  }
}

}  // namespace

void f32_im2col_panels_2d(const ImageWindow& w, const float* image, int64_t channels, int64_t first, int64_t count,
                          int64_t panels, int width, float* out) {
  thread_local std::vector<Segment> segments;
  thread_local std::vector<size_t> starts;  // panel q's segments: [starts[q], starts[q + 1])
  segments.clear();
  starts.clear();
  for (int64_t q = 0; q < panels; ++q) {
    starts.push_back(segments.size());
    plan_segments(w, first + q * width, std::clamp<int64_t>(count - q * width, 0, width), width, segments);
  }
  starts.push_back(segments.size());
  const int64_t plane_size = w.in[0] * w.in[1], block = w.kernel[0] * w.kernel[1] * width;
  const int64_t panel_floats = channels * block;
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t q = 0; q < panels; ++q)
      replay(segments.data() + starts[q], segments.data() + starts[q + 1], image + c * plane_size,
             out + q * panel_floats + c * block);
}

}  // namespace twinrt::kernels
