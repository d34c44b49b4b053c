// Image preprocessing as a spec that is written into every report, so a preprocessing
// mismatch (the most common cause of "the browser gives different numbers") is visible.
// Images are decoded with stb_image (PNG, JPEG).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::parity {

struct PreprocessSpec {
  // Resize: exact size, or shorter side to `resize_short` keeping the aspect ratio.
  std::optional<std::pair<int, int>> resize;        // width, height
  std::optional<int> resize_short;
  std::optional<std::pair<int, int>> center_crop;   // width, height
  bool bgr = false;                                 // channel order fed to the model
  double scale = 1.0 / 255.0;                       // pixel * scale, then (x - mean) / std
  std::vector<double> mean = {0, 0, 0};
  std::vector<double> std = {1, 1, 1};
  bool nhwc = false;                                // layout; NCHW by default
  DataType dtype = DataType::kFloat;
};

// "resize=256x256|short=256,crop=224x224,rgb|bgr,scale=0.00392157,mean=0.485:0.456:0.406,
//  std=0.229:0.224:0.225,nchw|nhwc,float32|float16|uint8" or a path to a JSON file with the
// same keys. Errors name the bad key.
Result<PreprocessSpec> parse_preprocess(const std::string& text);
nlohmann::json to_json(const PreprocessSpec& spec);

struct RgbImage;
// Applies `spec` to a decoded image (the pipeline's image steps use this too).
Result<Tensor> image_to_tensor(const RgbImage& image, const PreprocessSpec& spec);

// Decodes `image_path` and applies `spec`: a [1,3,H,W] (or [1,H,W,3]) tensor.
Result<Tensor> load_image(const std::string& image_path, const PreprocessSpec& spec);

// The usual mistakes, each as the spec a careless pipeline would use: BGR for RGB,
// /255 without mean/std, NHWC data fed as NCHW (same bytes, declared shape). Each entry is
// (description, tensor made with the mistake, shaped like the correct one).
Result<std::vector<std::pair<std::string, Tensor>>> mistaken_variants(const std::string& image_path,
                                                                       const PreprocessSpec& spec);

}  // namespace twinrt::parity
