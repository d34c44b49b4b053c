// load_image and mistaken_variants: an image through a PreprocessSpec to a model input.
#include <algorithm>
#include <cmath>

#include "kernels/math/half.h"
#include "parity/image.h"
#include "parity/preprocess.h"

namespace twinrt::parity {
namespace {

Result<RgbImage> apply_geometry(RgbImage image, const PreprocessSpec& spec) {
  if (spec.resize) image = resize_bilinear(image, spec.resize->first, spec.resize->second);
  if (spec.resize_short) {
    const auto [w, h] = size_for_short_side(image.width, image.height, *spec.resize_short);
    image = resize_bilinear(image, w, h);
  }
  if (spec.center_crop) return center_crop(image, spec.center_crop->first, spec.center_crop->second);
  return image;
}

// (pixel * scale - mean[c]) / std[c] for the channel fed at position c, in double, then
// converted to the spec's dtype (uint8: clamped to [0, 255] and rounded, halves up).
template <class T>
T normalized(uint8_t pixel, int c, const PreprocessSpec& spec) {
  const size_t ch = static_cast<size_t>(c);
  const double v = (pixel * spec.scale - spec.mean[ch]) / spec.std[ch];
  if constexpr (std::is_same_v<T, float>) return static_cast<float>(v);
  else if constexpr (std::is_same_v<T, Float16>) return math::to_float16(static_cast<float>(v));
  else return static_cast<uint8_t>(std::clamp(std::floor(v + 0.5), 0.0, 255.0));
}

template <class T>
void fill(const RgbImage& image, const PreprocessSpec& spec, T* out) {
  const int w = image.width, h = image.height;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) {
        const uint8_t pixel = image.at(x, y, spec.bgr ? 2 - c : c);
        const size_t index = spec.nhwc ? (static_cast<size_t>(y) * w + x) * 3 + c
                                       : (static_cast<size_t>(c) * h + y) * w + x;
        out[index] = normalized<T>(pixel, c, spec);
      }
}

}  // namespace

Result<Tensor> image_to_tensor(const RgbImage& decoded, const PreprocessSpec& spec) {
  if (spec.mean.size() != 3 || spec.std.size() != 3)
    return invalid_argument("preprocess: mean and std need 3 values");
  ASSIGN_OR_RETURN(RgbImage image, apply_geometry(decoded, spec));
  const int64_t w = image.width, h = image.height;
  std::vector<int64_t> shape = spec.nhwc ? std::vector<int64_t>{1, h, w, 3} : std::vector<int64_t>{1, 3, h, w};
  ASSIGN_OR_RETURN(Tensor t, Tensor::create(spec.dtype, shape));
  switch (spec.dtype) {
    case DataType::kFloat: fill(image, spec, t.data<float>()); break;
    case DataType::kFloat16: fill(image, spec, t.data<Float16>()); break;
    case DataType::kUInt8: fill(image, spec, t.data<uint8_t>()); break;
    default:
      return invalid_argument(std::string("preprocess: dtype ") + dtype_name(spec.dtype) +
                              " is not one of float32, float16, uint8");
  }
  return t;
}

Result<Tensor> load_image(const std::string& image_path, const PreprocessSpec& spec) {
  ASSIGN_OR_RETURN(RgbImage image, decode_image(image_path));
  auto t = image_to_tensor(image, spec);
  if (!t) return t.status().with_context("image '" + image_path + "': ");
  return t;
}

Result<std::vector<std::pair<std::string, Tensor>>> mistaken_variants(const std::string& image_path,
                                                                       const PreprocessSpec& spec) {
  ASSIGN_OR_RETURN(RgbImage image, decode_image(image_path));
  std::vector<std::pair<std::string, PreprocessSpec>> mistakes;
  PreprocessSpec swapped = spec;
  swapped.bgr = !spec.bgr;
  mistakes.emplace_back(spec.bgr ? "RGB for BGR" : "BGR for RGB", swapped);
  if (spec.mean != std::vector<double>{0, 0, 0} || spec.std != std::vector<double>{1, 1, 1}) {
    PreprocessSpec unnormalized = spec;
    unnormalized.mean = {0, 0, 0};
    unnormalized.std = {1, 1, 1};
    mistakes.emplace_back("scale without mean/std", unnormalized);
  }
  std::vector<std::pair<std::string, Tensor>> variants;
  for (const auto& [description, mistaken] : mistakes) {
    auto t = image_to_tensor(image, mistaken);
    if (!t) return t.status().with_context("image '" + image_path + "': ");
    variants.emplace_back(description, std::move(t).value());
  }
  // The other layout's bytes under the correct shape.
  PreprocessSpec other_layout = spec;
  other_layout.nhwc = !spec.nhwc;
  auto correct = image_to_tensor(image, spec);
  auto transposed = image_to_tensor(image, other_layout);
  if (!correct) return correct.status().with_context("image '" + image_path + "': ");
  if (!transposed) return transposed.status().with_context("image '" + image_path + "': ");
  ASSIGN_OR_RETURN(Tensor reinterpreted, transposed->reshaped(correct->shape()));
  variants.emplace_back(spec.nhwc ? "NCHW data fed as NHWC" : "NHWC data fed as NCHW", std::move(reinterpreted));
  return variants;
}

}  // namespace twinrt::parity
