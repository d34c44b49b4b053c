// rotate_by_class: a crop and an angle classifier's probabilities float32[1,2] (0 and 180
// degrees) -> the crop, turned 180 degrees when the classifier says 180 with probability
// at least "threshold" (PaddleOCR's cls_thresh). Use with "map": true, once per crop.
#include "pipeline/geometry.h"
#include "pipeline/image_tensor.h"
#include "pipeline/step.h"

namespace twinrt::pipeline {
namespace {

class RotateByClass final : public Step {
 public:
  explicit RotateByClass(double threshold) : threshold_(threshold) {}

  Result<ValueMap> run(const ValueMap& inputs) const override {
    ASSIGN_OR_RETURN(Tensor image_t, tensor_input(inputs, "image", DataType::kUInt8, 3));
    ASSIGN_OR_RETURN(Tensor probs, tensor_input(inputs, "probs", DataType::kFloat, 2));
    if (probs.dim(0) != 1 || probs.dim(1) != 2)
      return invalid_argument("input 'probs' must be float32[1,2] (0 and 180 degrees), got " + shape_to_string(probs.shape()));
    const float* p = probs.data<float>();
    if (!(p[1] > p[0] && p[1] >= threshold_)) return ValueMap{{"image", PipelineValue::single(image_t)}};
    ASSIGN_OR_RETURN(parity::RgbImage image, image_from_tensor(image_t, "input 'image'"));
    ASSIGN_OR_RETURN(Tensor rotated, tensor_from_image(rotate_180(image)));
    return ValueMap{{"image", PipelineValue::single(std::move(rotated))}};
  }

 private:
  double threshold_;
};

Result<std::unique_ptr<Step>> create(const nlohmann::json& params, const StepContext&) {
  TRY(check_param_keys(params, {"threshold"}));
  ASSIGN_OR_RETURN(double threshold, number_param(params, "threshold", 0.9));
  return std::unique_ptr<Step>(new RotateByClass(threshold));
}

TWINRT_REGISTER_STEP(rotate_by_class, {"rotate_by_class", "crop + probs float32[1,2] (0/180 degrees) -> crop, turned when 180 wins",
                                       {"image", "probs"}, {"image"}, {}, create});

}  // namespace
}  // namespace twinrt::pipeline
