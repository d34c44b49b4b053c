#include "kernels/portable/f32_maxpool_2d.h"

#include <algorithm>
#include <limits>

namespace twinrt::kernels {

bool f32_maxpool_2d_applies(const ImageWindow& w) {
  return w.rank == 2 && w.dilations[0] == 1 && w.dilations[1] == 1;
}

void f32_maxpool_2d(const ImageWindow& w, const float* in, float* out) {
  const int64_t in_h = w.in[0], in_w = w.in[1], out_h = w.out[0], out_w = w.out[1];
  const int64_t k_h = w.kernel[0], k_w = w.kernel[1], s_h = w.strides[0], s_w = w.strides[1];
  const int64_t pad_t = w.pad_begin[0], pad_l = w.pad_begin[1];
  constexpr float kNone = std::numeric_limits<float>::quiet_NaN();
  for (int64_t oh = 0; oh < out_h; ++oh) {
    float* row_out = out + oh * out_w;
    // NaN marks "no number yet": the next tap replaces it, whatever it is, so the first
    // number of the window is taken as the reference kernel takes it (even -inf), and NaN
    // taps after it never win a comparison.
    std::fill(row_out, row_out + out_w, kNone);
    const int64_t top = oh * s_h - pad_t;
    const int64_t kh_begin = std::max<int64_t>(0, -top), kh_end = std::min<int64_t>(k_h, in_h - top);
    for (int64_t kh = kh_begin; kh < kh_end; ++kh) {
      const float* row_in = in + (top + kh) * in_w;
      for (int64_t kw = 0; kw < k_w; ++kw) {
        // Output columns whose tap kw lies inside the row: 0 <= ow * s_w - pad_l + kw < in_w.
        const int64_t offset = kw - pad_l;
        const int64_t first = offset >= 0 ? 0 : (-offset + s_w - 1) / s_w;
        const int64_t last = in_w - 1 - offset < 0 ? -1 : (in_w - 1 - offset) / s_w;
        const int64_t end = std::min(out_w, last + 1);
        const float* taps = row_in + offset;
        for (int64_t ow = first; ow < end; ++ow) {
          const float v = taps[ow * s_w], m = row_out[ow];
          row_out[ow] = (v > m || m != m) ? v : m;
        }
      }
    }
    for (int64_t ow = 0; ow < out_w; ++ow)
      if (row_out[ow] != row_out[ow]) row_out[ow] = std::numeric_limits<float>::lowest();
  }
}

}  // namespace twinrt::kernels
