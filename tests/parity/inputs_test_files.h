// Files written at test time for inputs_test.cc and preprocess_test.cc: PNG/JPEG images
// (stb_image_write), .npy and ONNX .pb tensors, in a fresh folder per test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "twinrt/tensor.h"

namespace twinrt::parity::testing {

// A new empty folder under gtest's temp dir, named after the running test plus `suffix`.
std::string fresh_dir(const std::string& suffix = "");

// Writes `pixels` (row-major, `channels` interleaved bytes per pixel) as a PNG or a JPEG.
std::string write_png(const std::string& path, int width, int height, int channels, const std::vector<uint8_t>& pixels);
std::string write_jpeg(const std::string& path, int width, int height, const std::vector<uint8_t>& rgb);

std::string write_npy(const std::string& path, const Tensor& t);
std::string write_pb(const std::string& path, const Tensor& t);
std::string write_text(const std::string& path, const std::string& text);

}  // namespace twinrt::parity::testing
