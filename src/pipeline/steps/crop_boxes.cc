// crop_boxes: image + boxes float32[N,4,2] -> a list of N crops uint8[h,w,3], each box
// warped to an upright rectangle (perspective), turned 90 degrees counter-clockwise when it
// is at least "vertical_ratio" times taller than wide (vertical text), as PaddleOCR does.
#include <algorithm>
#include <cmath>

#include "pipeline/geometry.h"
#include "pipeline/image_tensor.h"
#include "pipeline/step.h"

namespace twinrt::pipeline {
namespace {

class CropBoxes final : public Step {
 public:
  explicit CropBoxes(double vertical_ratio) : vertical_ratio_(vertical_ratio) {}

  Result<ValueMap> run(const ValueMap& inputs) const override {
    ASSIGN_OR_RETURN(Tensor image_t, tensor_input(inputs, "image", DataType::kUInt8, 3));
    ASSIGN_OR_RETURN(parity::RgbImage image, image_from_tensor(image_t, "input 'image'"));
    ASSIGN_OR_RETURN(Tensor boxes, tensor_input(inputs, "boxes", DataType::kFloat, 3));
    if (boxes.dim(1) != 4 || boxes.dim(2) != 2)
      return invalid_argument("input 'boxes' must be float32[N,4,2], got " + shape_to_string(boxes.shape()));
    std::vector<Tensor> crops;
    const float* b = boxes.data<float>();
    // No upright crop of a box inside the image is longer than the image's diagonal.
    const int longest = static_cast<int>(std::hypot(image.width, image.height)) + 1;
    for (int64_t i = 0; i < boxes.dim(0); ++i) {
      Quad q;
      for (size_t c = 0; c < 4; ++c) q[c] = {b[i * 8 + static_cast<int64_t>(c) * 2], b[i * 8 + static_cast<int64_t>(c) * 2 + 1]};
      for (const Point& p : q)
        if (!std::isfinite(p.x) || !std::isfinite(p.y))
          return invalid_argument("input 'boxes': box " + std::to_string(i) + " has a non-finite corner");
      const int w = std::clamp(static_cast<int>(std::max(distance(q[0], q[1]), distance(q[3], q[2]))), 1, longest);
      const int h = std::clamp(static_cast<int>(std::max(distance(q[0], q[3]), distance(q[1], q[2]))), 1, longest);
      parity::RgbImage crop = warp_perspective(image, q, w, h);
      if (h >= vertical_ratio_ * w) crop = rotate_90_ccw(crop);
      ASSIGN_OR_RETURN(Tensor t, tensor_from_image(crop));
      crops.push_back(std::move(t));
    }
    return ValueMap{{"crops", PipelineValue::list(std::move(crops))}};
  }

 private:
  double vertical_ratio_;
};

Result<std::unique_ptr<Step>> create(const nlohmann::json& params, const StepContext&) {
  TRY(check_param_keys(params, {"vertical_ratio"}));
  ASSIGN_OR_RETURN(double ratio, number_param(params, "vertical_ratio", 1.5));
  if (ratio <= 0) return invalid_argument("parameter 'vertical_ratio' must be > 0");
  return std::unique_ptr<Step>(new CropBoxes(ratio));
}

TWINRT_REGISTER_STEP(crop_boxes, {"crop_boxes", "image + boxes float32[N,4,2] -> list of N upright crops (perspective warp)",
                                  {"image", "boxes"}, {"crops"}, {}, create});

}  // namespace
}  // namespace twinrt::pipeline
