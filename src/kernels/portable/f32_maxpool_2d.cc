#include "kernels/portable/f32_maxpool_2d.h"

#include <algorithm>
#include <limits>

#include "kernels/portable/window_runs.h"

namespace twinrt::kernels {

bool f32_maxpool_2d_applies(const ImageWindow& w) {
  return w.rank == 2 && w.dilations[0] == 1 && w.dilations[1] == 1;
}

void f32_maxpool_2d(const ImageWindow& w, const float* in, float* out) {
  const int64_t out_h = w.out[0], out_w = w.out[1], s_w = w.strides[1];
  constexpr float kNone = std::numeric_limits<float>::quiet_NaN();
  for (int64_t oh = 0; oh < out_h; ++oh) {
    float* row_out = out + oh * out_w;
    // NaN marks "no number yet": the next tap replaces it, whatever it is, so the first
    // number of the window is taken as the reference kernel takes it (even -inf), and NaN
    // taps after it never win a comparison.
    std::fill(row_out, row_out + out_w, kNone);
    for_each_tap_run(w, in, oh, [&](const float* taps, int64_t first, int64_t end) {
      for (int64_t ow = first; ow < end; ++ow) {
        const float v = taps[ow * s_w], m = row_out[ow];
        row_out[ow] = (v > m || m != m) ? v : m;
      }
    });
    for (int64_t ow = 0; ow < out_w; ++ow)
      if (row_out[ow] != row_out[ow]) row_out[ow] = std::numeric_limits<float>::lowest();
  }
}

}  // namespace twinrt::kernels
