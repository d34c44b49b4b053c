#include "kernels/portable/maxpool_2d.h"

#include <algorithm>
#include <limits>
#include <type_traits>

#include "kernels/portable/window_runs.h"

namespace twinrt::kernels {

bool maxpool_2d_applies(const ImageWindow& w) {
  return w.rank == 2 && w.dilations[0] == 1 && w.dilations[1] == 1;
}

namespace {

// row_out[ow] = the running maximum with tap taps[ow * stride] for ow in [first, end)
// (S: the stride when known at compile time, else 0).
template <int S, class T>
void tap_run(const T* taps, int64_t first, int64_t end, int64_t stride, T* row_out) {
  const int64_t s = S ? S : stride;
  for (int64_t ow = first; ow < end; ++ow) {
    const T v = taps[ow * s], m = row_out[ow];
    if constexpr (std::is_floating_point_v<T>) row_out[ow] = (v > m || m != m) ? v : m;
    else row_out[ow] = v > m ? v : m;
  }
}

template <class T>
void maxpool_2d(const ImageWindow& w, const T* in, T* out) {
  constexpr bool kFloat = std::is_floating_point_v<T>;
  const int64_t out_h = w.out[0], out_w = w.out[1], s_w = w.strides[1];
  // Float: NaN marks "no number yet": the next tap replaces it, whatever it is, so the
  // first number of the window is taken as the reference kernel takes it (even -inf), and
  // NaN taps after it never win a comparison. Integers are all numbers: start at the lowest.
  const T start = kFloat ? std::numeric_limits<T>::quiet_NaN() : std::numeric_limits<T>::lowest();
  for (int64_t oh = 0; oh < out_h; ++oh) {
    T* row_out = out + oh * out_w;
    std::fill(row_out, row_out + out_w, start);
    for_each_tap_run(w, in, oh, [&](const T* taps, int64_t first, int64_t end) {
      // Strides 1 and 2 as constants, so the compiler vectorizes their loads.
      if (s_w == 1) return tap_run<1>(taps, first, end, 1, row_out);
      if (s_w == 2) return tap_run<2>(taps, first, end, 2, row_out);
      tap_run<0>(taps, first, end, s_w, row_out);
    });
    if constexpr (kFloat)
      for (int64_t ow = 0; ow < out_w; ++ow)
        if (row_out[ow] != row_out[ow]) row_out[ow] = std::numeric_limits<T>::lowest();
  }
}

}  // namespace

void f32_maxpool_2d(const ImageWindow& w, const float* in, float* out) { maxpool_2d(w, in, out); }
void u8_maxpool_2d(const ImageWindow& w, const uint8_t* in, uint8_t* out) { maxpool_2d(w, in, out); }
void i8_maxpool_2d(const ImageWindow& w, const int8_t* in, int8_t* out) { maxpool_2d(w, in, out); }

}  // namespace twinrt::kernels
