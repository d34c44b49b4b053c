// The sampling math of Resize and Upsample: where each output coordinate comes from in
// the input (coordinate transformation), which input element "nearest" picks, and the
// separable linear/cubic interpolation. Follows the ONNX reference implementation,
// including its use of scale * input_length as the resized length.
#pragma once

#include <cstdint>
#include <vector>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::tensor_ops {

enum class ResizeMode { kNearest, kLinear, kCubic };
enum class CoordinateMode {
  kHalfPixel, kPytorchHalfPixel, kAlignCorners, kAsymmetric, kTfHalfPixelForNn, kTfCropAndResize
};
// kSimple is the rule of Upsample and Resize-10: floor when upsampling, ceil when
// downsampling (as ONNX Runtime does).
enum class NearestMode { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil, kSimple };

struct ResizeConfig {
  ResizeMode mode = ResizeMode::kNearest;
  CoordinateMode coordinates = CoordinateMode::kHalfPixel;
  NearestMode nearest = NearestMode::kRoundPreferFloor;
  double cubic_a = -0.75;
  bool exclude_outside = false;
};

// One axis: input and output lengths, the scale and (tf_crop_and_resize) the roi.
struct ResizeAxis {
  int64_t in = 0, out = 0;
  double scale = 1;
  double roi_start = 0, roi_end = 1;
};

// Input coordinate of output coordinate x.
double original_coordinate(const ResizeConfig& c, const ResizeAxis& a, int64_t x);

// Per output coordinate, the input coordinate "nearest" picks; -1 where
// tf_crop_and_resize samples outside the input (the extrapolation value).
std::vector<int64_t> nearest_map(const ResizeConfig& c, const ResizeAxis& a);

// Linear or cubic interpolation of x into y (shapes given by `axes`), one axis at a time;
// samples outside the input under tf_crop_and_resize become `extrapolation`. Sums run in
// double when `double_accumulation`, otherwise in float.
Status resize_interpolate(const ResizeConfig& c, const std::vector<ResizeAxis>& axes, const Tensor& x, Tensor& y,
                          double extrapolation, bool double_accumulation);

}  // namespace twinrt::tensor_ops
