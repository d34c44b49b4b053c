// 8-bit RGB images and the geometric steps of preprocessing (decode, resize, center crop).
// Pixels stay 8-bit between steps, as in PIL, OpenCV and a browser canvas.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "twinrt/status.h"

namespace twinrt::parity {

struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> pixels;  // row-major, interleaved R, G, B
  uint8_t at(int x, int y, int channel) const {
    return pixels[(static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) * 3 +
                  static_cast<size_t>(channel)];
  }
};

// Decodes a PNG or JPEG file with stb_image; grey and alpha images become RGB (alpha dropped).
// Errors name the file and stb's reason.
Result<RgbImage> decode_image(const std::string& path);

// Bilinear resize with half-pixel centers: output pixel x samples the source at
// (x + 0.5) * in_width / out_width - 0.5, clamped to [0, in_width - 1], and likewise for y;
// the four neighbours are weighted linearly and the result is rounded to the nearest
// integer (halves up). No antialiasing filter when shrinking (PIL has one, OpenCV's
// INTER_LINEAR does not).
RgbImage resize_bilinear(const RgbImage& image, int out_width, int out_height);

// The size that makes the shorter side `short_side`, the longer one scaled by the same
// factor and rounded down (as torchvision's Resize(int) does).
std::pair<int, int> size_for_short_side(int width, int height, int short_side);

// The centered width x height window; the left/top margin is (excess / 2) rounded down.
// Fails when the window is larger than the image.
Result<RgbImage> center_crop(const RgbImage& image, int width, int height);

}  // namespace twinrt::parity
