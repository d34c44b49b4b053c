// How the vectorizable 2-D pools (maxpool_2d.h, f32_avgpool_2d) walk a window without
// dilation: for output row `oh`, every tap (kh, kw) inside the input's rows in row-major
// order, with the run of output columns [first, end) whose tap kw lies inside the input row.
// Each output column thus sees its taps in the reference kernel's order.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/ref/image_window.h"

namespace twinrt::kernels {

// Calls f(taps, first, end) where taps[ow * strides[1]] is tap (kh, kw) of output column ow.
template <class T, class F>
void for_each_tap_run(const ImageWindow& w, const T* in, int64_t oh, F&& f) {
  const int64_t in_h = w.in[0], in_w = w.in[1], out_w = w.out[1];
  const int64_t k_h = w.kernel[0], k_w = w.kernel[1], s_h = w.strides[0], s_w = w.strides[1];
  const int64_t top = oh * s_h - w.pad_begin[0];
  const int64_t kh_begin = std::max<int64_t>(0, -top), kh_end = std::min<int64_t>(k_h, in_h - top);
  for (int64_t kh = kh_begin; kh < kh_end; ++kh) {
    const T* row_in = in + (top + kh) * in_w;
    for (int64_t kw = 0; kw < k_w; ++kw) {
      // Output columns whose tap kw lies inside the row: 0 <= ow * s_w - pad_l + kw < in_w.
      const int64_t offset = kw - w.pad_begin[1];
      const int64_t first = offset >= 0 ? 0 : (-offset + s_w - 1) / s_w;
      const int64_t last = in_w - 1 - offset < 0 ? -1 : (in_w - 1 - offset) / s_w;
      f(row_in + offset, first, std::min(out_w, last + 1));
    }
  }
}

}  // namespace twinrt::kernels
