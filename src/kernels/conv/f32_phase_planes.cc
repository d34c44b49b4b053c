#include "kernels/conv/f32_phase_planes.h"

#include <algorithm>
#include <cstring>

namespace twinrt::kernels {

PhasePlanes phase_planes(const ImageWindow& w) {
  PhasePlanes pp;
  pp.stride_h = w.strides[0];
  pp.stride_w = w.strides[1];
  pp.rows = w.out[0] + (w.kernel[0] - 1) * w.dilations[0] / pp.stride_h;
  pp.cols = w.out[1] + (w.kernel[1] - 1) * w.dilations[1] / pp.stride_w;
  return pp;
}

void f32_split_phases(const ImageWindow& w, const float* image, int64_t c0, int64_t c1, float* out) {
  const PhasePlanes pp = phase_planes(w);
  const int64_t in_h = w.in[0], in_w = w.in[1], s_h = pp.stride_h, s_w = pp.stride_w;
  const int64_t phases = s_h * s_w;
  for (int64_t q = c0; q < c1; ++q) {
    const int64_t c = q / phases, a = q % phases / s_w, b = q % s_w;
    float* plane = out + q * pp.plane_floats();
    // Columns [lo, hi) read input column j * s_w + b - pad; the others are padding.
    const int64_t x0 = b - w.pad_begin[1];
    const int64_t lo = std::clamp<int64_t>(x0 >= 0 ? 0 : (-x0 + s_w - 1) / s_w, 0, pp.cols);
    const int64_t hi = std::clamp<int64_t>(x0 >= in_w ? 0 : (in_w - x0 + s_w - 1) / s_w, lo, pp.cols);
    for (int64_t i = 0; i < pp.rows; ++i) {
      float* dst = plane + i * pp.cols;
      const int64_t y = i * s_h + a - w.pad_begin[0];
      if (y < 0 || y >= in_h) {
        std::fill(dst, dst + pp.cols, 0.0f);
        continue;
      }
      const float* src = image + (c * in_h + y) * in_w + lo * s_w + x0;  // column lo's input
      std::fill(dst, dst + lo, 0.0f);
      // Constant strides let the compiler load whole vectors.
      if (s_w == 1) std::memcpy(dst + lo, src, static_cast<size_t>(hi - lo) * sizeof(float));
      else if (s_w == 2)
        for (int64_t j = 0; j < hi - lo; ++j) dst[lo + j] = src[2 * j];
      else
        for (int64_t j = 0; j < hi - lo; ++j) dst[lo + j] = src[j * s_w];
      std::fill(dst + hi, dst + pp.cols, 0.0f);
    }
  }
}

void phase_tap_offsets(const ImageWindow& w, int64_t channels, int64_t* offsets) {
  const PhasePlanes pp = phase_planes(w);
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t kh = 0; kh < w.kernel[0]; ++kh)
      for (int64_t kw = 0; kw < w.kernel[1]; ++kw) {
        const int64_t y = kh * w.dilations[0], x = kw * w.dilations[1];
        const int64_t phase = y % pp.stride_h * pp.stride_w + x % pp.stride_w;
        *offsets++ = (c * pp.stride_h * pp.stride_w + phase) * pp.plane_floats() + y / pp.stride_h * pp.cols +
                     x / pp.stride_w;
      }
}

}  // namespace twinrt::kernels
