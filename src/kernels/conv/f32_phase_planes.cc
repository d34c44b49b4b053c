#include "kernels/conv/f32_phase_planes.h"

#include <algorithm>
#include <cstring>

namespace twinrt::kernels {

namespace {

typedef float V4 __attribute__((vector_size(16)));
typedef float V4U __attribute__((vector_size(16), aligned(4), may_alias));

// dst[j] = src[2 j] for j < n, four at a time with one shuffle: the stride-2 split of every
// CNN's stem (the compiler's loop for the plain copy took 0.27-0.33 ns a float, this one
// 0.16-0.18, on 3 x 224 x 224 and 3 x 640 x 640 images). The second load starts one float
// early so that nothing past src[2 n - 2] is read.
void copy_even_columns(const float* src, int64_t n, float* dst) {
  int64_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const V4 a = *reinterpret_cast<const V4U*>(src + 2 * j);
    const V4 b = *reinterpret_cast<const V4U*>(src + 2 * j + 3);
    *reinterpret_cast<V4U*>(dst + j) = __builtin_shufflevector(a, b, 0, 2, 5, 7);
  }
  for (; j < n; ++j) dst[j] = src[2 * j];
}

}  // namespace

PhasePlanes phase_planes(const ImageWindow& w) {
  PhasePlanes pp;
  pp.stride_h = w.strides[0];
  pp.stride_w = w.strides[1];
  pp.rows = w.out[0] + (w.kernel[0] - 1) * w.dilations[0] / pp.stride_h;
  pp.cols = w.out[1] + (w.kernel[1] - 1) * w.dilations[1] / pp.stride_w;
  return pp;
}

void f32_split_phases(const ImageWindow& w, const float* image, int64_t c0, int64_t c1, int64_t row0,
                      const PhasePlanes& band, float* out) {
  const PhasePlanes pp = phase_planes(w);
  const int64_t in_h = w.in[0], in_w = w.in[1], s_h = pp.stride_h, s_w = pp.stride_w;
  const int64_t phases = s_h * s_w;
  const int64_t row_end = row0 + band.rows < pp.rows ? row0 + band.rows : pp.rows;
  for (int64_t q = c0; q < c1; ++q) {
    const int64_t c = q / phases, a = q % phases / s_w, b = q % s_w;
    float* plane = out + q * band.plane_floats();  // its row row0 first
    // Columns [lo, hi) read input column j * s_w + b - pad; the others are padding.
    const int64_t x0 = b - w.pad_begin[1];
    const int64_t lo = std::clamp<int64_t>(x0 >= 0 ? 0 : (-x0 + s_w - 1) / s_w, 0, pp.cols);
    const int64_t hi = std::clamp<int64_t>(x0 >= in_w ? 0 : (in_w - x0 + s_w - 1) / s_w, lo, pp.cols);
    std::fill(plane + (row_end - row0) * pp.cols, plane + band.plane_floats(), 0.0f);
    for (int64_t i = row0; i < row_end; ++i) {
      float* dst = plane + (i - row0) * pp.cols;
      const int64_t y = i * s_h + a - w.pad_begin[0];
      if (y < 0 || y >= in_h) {
        std::fill(dst, dst + pp.cols, 0.0f);
        continue;
      }
      const float* src = image + (c * in_h + y) * in_w + lo * s_w + x0;  // column lo's input
      std::fill(dst, dst + lo, 0.0f);
      if (s_w == 1) std::memcpy(dst + lo, src, static_cast<size_t>(hi - lo) * sizeof(float));
      else if (s_w == 2) copy_even_columns(src, hi - lo, dst + lo);
      else
        for (int64_t j = 0; j < hi - lo; ++j) dst[lo + j] = src[j * s_w];
      std::fill(dst + hi, dst + pp.cols, 0.0f);
    }
  }
}

void phase_tap_offsets(const ImageWindow& w, int64_t channels, const PhasePlanes& band, int64_t* offsets) {
  const PhasePlanes& pp = band;  // only its plane size differs from the whole split's
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
