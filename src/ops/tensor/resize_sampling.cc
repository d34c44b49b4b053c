#include "ops/tensor/resize_sampling.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/math/half.h"
#include "ops/common/dispatch.h"
#include "ops/tensor/elements.h"

namespace twinrt::tensor_ops {
namespace {

bool outside_input(const ResizeConfig& c, const ResizeAxis& a, double x) {
  return c.coordinates == CoordinateMode::kTfCropAndResize && (x < 0 || x > static_cast<double>(a.in - 1));
}

// x limited to a range that keeps integer conversions defined (NaN, from a NaN roi,
// becomes 0); anything beyond the input ends up clamped to its edge anyway.
double bounded(double x, int64_t n) {
  return x == x ? std::clamp(x, -4.0, static_cast<double>(n) + 4.0) : 0.0;
}

int64_t floor_index(double x, int64_t n) { return static_cast<int64_t>(std::floor(bounded(x, n))); }

int64_t nearest_index(double x, NearestMode mode, bool downsampling, int64_t n) {
  const int64_t lo = floor_index(x, n);
  const double frac = bounded(x, n) - static_cast<double>(lo);
  if (frac == 0) return lo;
  switch (mode) {
    case NearestMode::kRoundPreferFloor: return frac <= 0.5 ? lo : lo + 1;
    case NearestMode::kRoundPreferCeil: return frac < 0.5 ? lo : lo + 1;
    case NearestMode::kFloor: return lo;
    case NearestMode::kCeil: return lo + 1;
    case NearestMode::kSimple: return downsampling ? lo + 1 : lo;
  }
  return lo;
}

std::array<double, 4> cubic_coefficients(double r, double a) {
  const double s = 1 - r;
  return {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
          ((a + 2) * r - (a + 3)) * r * r + 1,
          ((a + 2) * s - (a + 3)) * s * s + 1,
          ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a};
}

// The input samples (index, weight) that make up each output coordinate of one axis.
struct AxisTaps {
  int64_t per_out = 0;
  std::vector<int64_t> index;   // [out * per_out], clamped into the input
  std::vector<double> weight;   // [out * per_out]
  std::vector<bool> outside;    // per output coordinate (extrapolated)
  bool identity = true;         // every output j is exactly input j
};

AxisTaps interpolation_taps(const ResizeConfig& c, const ResizeAxis& a) {
  AxisTaps t;
  t.per_out = c.mode == ResizeMode::kLinear ? 2 : 4;
  t.identity = a.in == a.out;
  for (int64_t j = 0; j < a.out; ++j) {
    const double x = original_coordinate(c, a, j);
    const bool outside = outside_input(c, a, x);
    t.outside.push_back(outside);
    const int64_t x0 = floor_index(x, a.in);
    const double r = bounded(x, a.in) - static_cast<double>(x0);
    std::array<double, 4> w{};
    int64_t first = x0;
    if (c.mode == ResizeMode::kLinear) {
      w = {1 - r, r, 0, 0};
    } else {
      w = cubic_coefficients(r, c.cubic_a);
      first = x0 - 1;
    }
    if (c.exclude_outside) {
      double sum = 0;
      for (int64_t k = 0; k < t.per_out; ++k) {
        if (first + k < 0 || first + k >= a.in) w[static_cast<size_t>(k)] = 0;
        sum += w[static_cast<size_t>(k)];
      }
      if (sum != 0)
        for (double& v : w) v /= sum;
    }
    for (int64_t k = 0; k < t.per_out; ++k) {
      const int64_t idx = std::clamp<int64_t>(first + k, 0, a.in - 1);
      const double wk = outside ? (k == 0 ? 1.0 : 0.0) : w[static_cast<size_t>(k)];
      t.index.push_back(idx);
      t.weight.push_back(wk);
      if (wk != 0 && (idx != j || wk != 1)) t.identity = false;
    }
    if (outside) t.identity = false;
  }
  return t;
}

template <class T, class Acc>
Acc to_acc(const T& v) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) return static_cast<Acc>(math::to_float(v));
  else return static_cast<Acc>(v);
}

template <class T, class Acc>
T from_acc(Acc v) {
  if constexpr (std::is_same_v<T, Float16>) {
    return math::to_float16(static_cast<float>(v));
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return math::to_bfloat16(static_cast<float>(v));
  } else if constexpr (std::is_integral_v<T>) {
    const double r = std::nearbyint(static_cast<double>(v));
    if (!(r == r)) return T(0);
    return static_cast<T>(std::clamp(r, static_cast<double>(std::numeric_limits<T>::lowest()),
                                     static_cast<double>(std::numeric_limits<T>::max())));
  } else {
    return static_cast<T>(v);
  }
}

// One separable pass: interpolates `src` (shape `shape`) along axis d into dst.
template <class Acc>
void interpolate_axis(const std::vector<Acc>& src, std::vector<Acc>& dst, std::vector<int64_t>& shape, size_t d,
                      const AxisTaps& taps, int64_t out_len) {
  int64_t outer = 1, inner = 1;
  for (size_t k = 0; k < d; ++k) outer *= shape[k];
  for (size_t k = d + 1; k < shape.size(); ++k) inner *= shape[k];
  const int64_t in_len = shape[d];
  dst.assign(static_cast<size_t>(outer * out_len * inner), Acc(0));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < out_len; ++j) {
      Acc* out = dst.data() + (o * out_len + j) * inner;
      for (int64_t k = 0; k < taps.per_out; ++k) {
        const Acc w = static_cast<Acc>(taps.weight[static_cast<size_t>(j * taps.per_out + k)]);
        const Acc* in = src.data() + (o * in_len + taps.index[static_cast<size_t>(j * taps.per_out + k)]) * inner;
        for (int64_t i = 0; i < inner; ++i) out[i] += w * in[i];
      }
    }
  shape[d] = out_len;
}

template <class T, class Acc>
void interpolate_typed(const std::vector<AxisTaps>& taps, const std::vector<ResizeAxis>& axes, const Tensor& x,
                       Tensor& y, double extrapolation, bool any_outside) {
  const T* src = x.data<T>();
  std::vector<Acc> cur(static_cast<size_t>(x.numel())), next;
  for (size_t i = 0; i < cur.size(); ++i) cur[i] = to_acc<T, Acc>(src[i]);
  std::vector<int64_t> shape = x.shape();
  // Innermost axis first: the same nesting of sums as the ONNX reference.
  for (size_t d = axes.size(); d-- > 0;) {
    if (taps[d].identity) continue;
    interpolate_axis(cur, next, shape, d, taps[d], axes[d].out);
    cur.swap(next);
  }
  T* dst = y.data<T>();
  const T fill = from_acc<T, double>(extrapolation);
  std::vector<int64_t> idx(axes.size(), 0);
  for (size_t i = 0; i < cur.size(); ++i) {
    bool outside = false;
    if (any_outside) {
      for (size_t d = 0; d < axes.size(); ++d) outside = outside || taps[d].outside[static_cast<size_t>(idx[d])];
      next_index(idx, y.shape());
    }
    dst[i] = outside ? fill : from_acc<T, Acc>(cur[i]);
  }
}

}  // namespace

double original_coordinate(const ResizeConfig& c, const ResizeAxis& a, int64_t x_out) {
  const double x = static_cast<double>(x_out), s = a.scale, in = static_cast<double>(a.in);
  // The reference implementation's resized length: scale * input length (not floored).
  const double resized = s * in;
  switch (c.coordinates) {
    case CoordinateMode::kHalfPixel: return (x + 0.5) / s - 0.5;
    case CoordinateMode::kPytorchHalfPixel: return a.out > 1 ? (x + 0.5) / s - 0.5 : 0.0;
    case CoordinateMode::kAlignCorners: return resized == 1 ? 0.0 : x * (in - 1) / (resized - 1);
    case CoordinateMode::kAsymmetric: return x / s;
    case CoordinateMode::kTfHalfPixelForNn: return (x + 0.5) / s;
    case CoordinateMode::kTfCropAndResize:
      if (resized == 1) return 0.5 * (a.roi_start + a.roi_end) * (in - 1);
      return a.roi_start * (in - 1) + x * (a.roi_end - a.roi_start) * (in - 1) / (resized - 1);
  }
  return 0.0;
}

std::vector<int64_t> nearest_map(const ResizeConfig& c, const ResizeAxis& a) {
  std::vector<int64_t> map(static_cast<size_t>(a.out));
  for (int64_t j = 0; j < a.out; ++j) {
    const double x = original_coordinate(c, a, j);
    map[static_cast<size_t>(j)] =
        outside_input(c, a, x) ? -1 : std::clamp<int64_t>(nearest_index(x, c.nearest, a.scale < 1, a.in), 0, a.in - 1);
  }
  return map;
}

Status resize_interpolate(const ResizeConfig& c, const std::vector<ResizeAxis>& axes, const Tensor& x, Tensor& y,
                          double extrapolation, bool double_accumulation) {
  std::vector<AxisTaps> taps;
  bool any_outside = false;
  for (const ResizeAxis& a : axes) {
    taps.push_back(interpolation_taps(c, a));
    for (bool o : taps.back().outside) any_outside = any_outside || o;
  }
  return dispatch<kAllNumeric>(x.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    if (double_accumulation) interpolate_typed<T, double>(taps, axes, x, y, extrapolation, any_outside);
    else interpolate_typed<T, float>(taps, axes, x, y, extrapolation, any_outside);
    return Status::ok();
  });
}

}  // namespace twinrt::tensor_ops
