#include "parity/image.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "io/file_io.h"
#include "parity/stb_image_decode.h"

namespace twinrt::parity {
namespace {

// Source position and weight of the upper neighbour for output coordinate `out`.
struct Sample {
  int lo, hi;
  double weight_hi;
};

Sample sample_at(int out, int in_size, int out_size) {
  double src = (out + 0.5) * in_size / out_size - 0.5;
  src = std::clamp(src, 0.0, static_cast<double>(in_size - 1));
  const int lo = static_cast<int>(std::floor(src));
  return Sample{lo, std::min(lo + 1, in_size - 1), src - lo};
}

}  // namespace

Result<RgbImage> decode_image(const std::string& path) {
  ASSIGN_OR_RETURN(std::string bytes, io::read_file_bytes(path));
  auto image = decode_rgb8(bytes);
  if (!image) return image.status().with_context("image '" + path + "': ");
  return image;
}

RgbImage resize_bilinear(const RgbImage& image, int out_width, int out_height) {
  RgbImage out{out_width, out_height, std::vector<uint8_t>(static_cast<size_t>(out_width) * out_height * 3)};
  std::vector<Sample> xs(static_cast<size_t>(out_width));
  for (int x = 0; x < out_width; ++x) xs[static_cast<size_t>(x)] = sample_at(x, image.width, out_width);
  size_t o = 0;
  for (int y = 0; y < out_height; ++y) {
    const Sample sy = sample_at(y, image.height, out_height);
    for (int x = 0; x < out_width; ++x) {
      const Sample& sx = xs[static_cast<size_t>(x)];
      for (int c = 0; c < 3; ++c) {
        const double top = image.at(sx.lo, sy.lo, c) * (1 - sx.weight_hi) + image.at(sx.hi, sy.lo, c) * sx.weight_hi;
        const double bottom = image.at(sx.lo, sy.hi, c) * (1 - sx.weight_hi) + image.at(sx.hi, sy.hi, c) * sx.weight_hi;
        const double v = top * (1 - sy.weight_hi) + bottom * sy.weight_hi;
        out.pixels[o++] = static_cast<uint8_t>(std::clamp(std::floor(v + 0.5), 0.0, 255.0));
      }
    }
  }
  return out;
}

std::pair<int, int> size_for_short_side(int width, int height, int short_side) {
  const int64_t s = short_side;
  if (width <= height) return {short_side, static_cast<int>(s * height / width)};
  return {static_cast<int>(s * width / height), short_side};
}

Result<RgbImage> center_crop(const RgbImage& image, int width, int height) {
  if (width > image.width || height > image.height)
    return invalid_argument("crop " + std::to_string(width) + "x" + std::to_string(height) +
                            " is larger than the image (" + std::to_string(image.width) + "x" +
                            std::to_string(image.height) + " after resizing)");
  const int left = (image.width - width) / 2, top = (image.height - height) / 2;
  RgbImage out{width, height, {}};
  out.pixels.reserve(static_cast<size_t>(width) * height * 3);
  for (int y = top; y < top + height; ++y) {
    const auto row = image.pixels.begin() + (static_cast<std::ptrdiff_t>(y) * image.width + left) * 3;
    out.pixels.insert(out.pixels.end(), row, row + static_cast<std::ptrdiff_t>(width) * 3);
  }
  return out;
}

}  // namespace twinrt::parity
