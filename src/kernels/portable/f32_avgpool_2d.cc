#include "kernels/portable/f32_avgpool_2d.h"

#include <algorithm>
#include <vector>

#include "kernels/portable/window_runs.h"

namespace twinrt::kernels {

bool f32_avgpool_2d_applies(const ImageWindow& w) {
  return w.rank == 2 && w.dilations[0] == 1 && w.dilations[1] == 1;
}

namespace {

// Taps of a window starting at `start` that lie in [lo, hi).
int64_t taps_within(int64_t start, int64_t kernel, int64_t lo, int64_t hi) {
  return std::max<int64_t>(0, std::min(start + kernel, hi) - std::max(start, lo));
}

}  // namespace

void f32_avgpool_2d(const ImageWindow& w, const float* in, float* out, bool count_include_pad) {
  const int64_t in_h = w.in[0], in_w = w.in[1], out_h = w.out[0], out_w = w.out[1];
  const int64_t k_h = w.kernel[0], k_w = w.kernel[1], s_h = w.strides[0], s_w = w.strides[1];
  const int64_t pad_t = w.pad_begin[0], pad_l = w.pad_begin[1];
  const int64_t pad_b = w.pad_end ? w.pad_end[0] : 0, pad_r = w.pad_end ? w.pad_end[1] : 0;
  // Per output column: taps inside the input row, and inside the padded row.
  std::vector<int64_t> inside_w(static_cast<size_t>(out_w)), padded_w(static_cast<size_t>(out_w));
  for (int64_t ow = 0; ow < out_w; ++ow) {
    const int64_t left = ow * s_w - pad_l;
    inside_w[static_cast<size_t>(ow)] = taps_within(left, k_w, 0, in_w);
    padded_w[static_cast<size_t>(ow)] = taps_within(left, k_w, -pad_l, in_w + pad_r);
  }
  for (int64_t oh = 0; oh < out_h; ++oh) {
    float* row_out = out + oh * out_w;
    std::fill(row_out, row_out + out_w, 0.0f);
    const int64_t top = oh * s_h - pad_t;
    for_each_tap_run(w, in, oh, [&](const float* taps, int64_t first, int64_t end) {
      for (int64_t ow = first; ow < end; ++ow) row_out[ow] += taps[ow * s_w];
    });
    const int64_t rows_inside = taps_within(top, k_h, 0, in_h);
    const int64_t rows_padded = taps_within(top, k_h, -pad_t, in_h + pad_b);
    for (int64_t ow = 0; ow < out_w; ++ow) {
      const int64_t n = count_include_pad ? rows_padded * padded_w[static_cast<size_t>(ow)]
                                          : rows_inside * inside_w[static_cast<size_t>(ow)];
      row_out[ow] = n > 0 ? row_out[ow] / static_cast<float>(n) : 0.0f;
    }
  }
}

float f32_mean_8_lanes(const float* x, int64_t n) {
  float lane[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int j = 0; j < 8; ++j) lane[j] += x[i + j];
  for (int j = 0; i < n; ++i, ++j) lane[j] += x[i];
  const float sum = ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
  return n > 0 ? sum / static_cast<float>(n) : 0.0f;
}

}  // namespace twinrt::kernels
