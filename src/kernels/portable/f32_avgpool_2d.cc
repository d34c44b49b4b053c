#include "kernels/portable/f32_avgpool_2d.h"

#include <algorithm>

namespace twinrt::kernels {

bool f32_avgpool_2d_applies(const ImageWindow& w) {
  return w.rank == 2 && w.dilations[0] == 1 && w.dilations[1] == 1;
}

namespace {

// Taps of a window starting at `start` that lie in [lo, hi).
int64_t taps_within(int64_t start, int64_t kernel, int64_t lo, int64_t hi) {
  return std::max<int64_t>(0, std::min(start + kernel, hi) - std::max(start, lo));
}

// The divisor of output column ow: its taps inside the input row, or inside the padded row.
int64_t column_count(const ImageWindow& w, int64_t ow, bool count_include_pad) {
  const int64_t left = ow * w.strides[1] - w.pad_begin[1], pad_r = w.pad_end ? w.pad_end[1] : 0;
  return count_include_pad ? taps_within(left, w.kernel[1], -w.pad_begin[1], w.in[1] + pad_r)
                           : taps_within(left, w.kernel[1], 0, w.in[1]);
}

// The sum of output column ow's taps inside the input, rows [kh_begin, kh_end) of a window
// whose top row is `top`, from +0 in row-major order.
float column_sum(const ImageWindow& w, const float* in, int64_t top, int64_t kh_begin, int64_t kh_end, int64_t ow) {
  float sum = 0.0f;
  const int64_t left = ow * w.strides[1] - w.pad_begin[1];
  for (int64_t kh = kh_begin; kh < kh_end; ++kh)
    for (int64_t kw = std::max<int64_t>(0, -left); kw < w.kernel[1] && left + kw < w.in[1]; ++kw)
      sum += in[(top + kh) * w.in[1] + left + kw];
  return sum;
}

// S, KW: the stride along the rows and the window's width when known at compile time, else
// 0. The columns whose taps all lie inside the row take one pass per kernel row that adds
// its KW taps in order (the compiler vectorizes it), the others column_sum.
template <int S, int KW>
void avgpool_rows(const ImageWindow& w, const float* in, float* out, bool count_include_pad) {
  const int64_t in_h = w.in[0], in_w = w.in[1], out_h = w.out[0], out_w = w.out[1];
  const int64_t k_h = w.kernel[0], k_w = KW ? KW : w.kernel[1], s_h = w.strides[0], s_w = S ? S : w.strides[1];
  const int64_t pad_t = w.pad_begin[0], pad_l = w.pad_begin[1], pad_b = w.pad_end ? w.pad_end[0] : 0;
  // Columns [lo, hi) have all k_w taps inside the input row (and so inside the padded row).
  const int64_t lo = std::min(out_w, (pad_l + s_w - 1) / s_w);
  const int64_t hi = std::max(lo, in_w - k_w + pad_l < 0 ? 0 : std::min(out_w, (in_w - k_w + pad_l) / s_w + 1));
  for (int64_t oh = 0; oh < out_h; ++oh) {
    float* row_out = out + oh * out_w;
    const int64_t top = oh * s_h - pad_t;
    const int64_t kh_begin = std::max<int64_t>(0, -top), kh_end = std::min<int64_t>(k_h, in_h - top);
    std::fill(row_out + lo, row_out + hi, 0.0f);
    for (int64_t kh = kh_begin; kh < kh_end; ++kh) {
      const float* taps = in + (top + kh) * in_w - pad_l;
      for (int64_t ow = lo; ow < hi; ++ow) {
        float sum = row_out[ow];
        for (int64_t kw = 0; kw < k_w; ++kw) sum += taps[ow * s_w + kw];
        row_out[ow] = sum;
      }
    }
    const int64_t rows = count_include_pad ? taps_within(top, k_h, -pad_t, in_h + pad_b) : taps_within(top, k_h, 0, in_h);
    const auto edge = [&](int64_t ow) {
      const int64_t n = rows * column_count(w, ow, count_include_pad);
      row_out[ow] = n > 0 ? column_sum(w, in, top, kh_begin, kh_end, ow) / static_cast<float>(n) : 0.0f;
    };
    for (int64_t ow = 0; ow < lo; ++ow) edge(ow);
    const float interior = static_cast<float>(rows * k_w);
    for (int64_t ow = lo; ow < hi; ++ow) row_out[ow] = rows > 0 ? row_out[ow] / interior : 0.0f;
    for (int64_t ow = hi; ow < out_w; ++ow) edge(ow);
  }
}

}  // namespace

void f32_avgpool_2d(const ImageWindow& w, const float* in, float* out, bool count_include_pad) {
  // The common windows with their taps unrolled.
  const int64_t s_w = w.strides[1], k_w = w.kernel[1];
  if (s_w == 2 && k_w == 2) avgpool_rows<2, 2>(w, in, out, count_include_pad);
  else if (s_w == 1 && k_w == 3) avgpool_rows<1, 3>(w, in, out, count_include_pad);
  else if (s_w == 2 && k_w == 3) avgpool_rows<2, 3>(w, in, out, count_include_pad);
  else if (s_w == 1) avgpool_rows<1, 0>(w, in, out, count_include_pad);
  else if (s_w == 2) avgpool_rows<2, 0>(w, in, out, count_include_pad);
  else avgpool_rows<0, 0>(w, in, out, count_include_pad);
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
