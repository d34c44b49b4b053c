// image_normalize: image uint8[H,W,3] -> float32[1,3,h,w] for a detector. Resized so the
// longer side is at most "max_side", then each side rounded to a multiple of "multiple"
// (PaddleOCR's DetResizeForTest); or enlarged first so the shorter side is at least
// "min_side" (a single text line would otherwise be squeezed to 32 pixels); or to a fixed
// "size" [w, h]; then normalized.
#include <algorithm>
#include <cmath>

#include "pipeline/image_tensor.h"
#include "pipeline/steps/normalize_params.h"

namespace twinrt::pipeline {
namespace {

class ImageNormalize final : public Step {
 public:
  ImageNormalize(parity::PreprocessSpec spec, int min_side, int max_side, int multiple, std::vector<double> size)
      : spec_(std::move(spec)), min_side_(min_side), max_side_(max_side), multiple_(multiple), size_(std::move(size)) {}

  Result<ValueMap> run(const ValueMap& inputs) const override {
    ASSIGN_OR_RETURN(Tensor t, tensor_input(inputs, "image", DataType::kUInt8, 3));
    ASSIGN_OR_RETURN(parity::RgbImage image, image_from_tensor(t, "input 'image'"));
    parity::PreprocessSpec spec = spec_;
    spec.resize = target_size(image.width, image.height);
    ASSIGN_OR_RETURN(Tensor out, parity::image_to_tensor(image, spec));
    return ValueMap{{"tensor", PipelineValue::single(std::move(out))}};
  }

 private:
  std::pair<int, int> target_size(int w, int h) const {
    if (size_[0] > 0) return {static_cast<int>(size_[0]), static_cast<int>(size_[1])};
    double ratio = 1;
    if (min_side_ > 0 && std::min(w, h) < min_side_) ratio = static_cast<double>(min_side_) / std::min(w, h);
    if (max_side_ > 0 && std::max(w, h) * ratio > max_side_) ratio = static_cast<double>(max_side_) / std::max(w, h);
    auto round_side = [&](int side) {
      const int scaled = static_cast<int>(side * ratio);
      return std::max(multiple_, static_cast<int>(std::lround(static_cast<double>(scaled) / multiple_)) * multiple_);
    };
    return {round_side(w), round_side(h)};
  }

  parity::PreprocessSpec spec_;
  int min_side_, max_side_, multiple_;
  std::vector<double> size_;
};

Result<std::unique_ptr<Step>> create(const nlohmann::json& params, const StepContext&) {
  std::vector<std::string> keys = kNormalizeKeys;
  keys.insert(keys.end(), {"min_side", "max_side", "multiple", "size"});
  TRY(check_param_keys(params, keys));
  ASSIGN_OR_RETURN(parity::PreprocessSpec spec, normalize_params(params));
  ASSIGN_OR_RETURN(int min_side, int_param(params, "min_side", 0, 0));
  ASSIGN_OR_RETURN(int max_side, int_param(params, "max_side", 0, 0));
  ASSIGN_OR_RETURN(int multiple, int_param(params, "multiple", 1, 1));
  ASSIGN_OR_RETURN(std::vector<double> size, numbers_param(params, "size", {0, 0}));
  if (size[0] < 0 || size[1] < 0 || size[0] > 16384 || size[1] > 16384 || (size[0] > 0) != (size[1] > 0))
    return invalid_argument("parameter 'size' must be [width, height], both in [1, 16384]");
  return std::unique_ptr<Step>(new ImageNormalize(std::move(spec), min_side, max_side, multiple, std::move(size)));
}

TWINRT_REGISTER_STEP(image_normalize, {"image_normalize", "image -> float32[1,3,h,w]: resize (max_side/multiple or size), scale, mean, std",
                                       {"image"}, {"tensor"}, {}, create});

}  // namespace
}  // namespace twinrt::pipeline
