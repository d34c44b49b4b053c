// text_line_resize: a text-line crop -> float32[1,3,height,W] for a recognizer or angle
// classifier: resized to "height" keeping the aspect ratio (width at most "max_width"),
// normalized, then padded with zeros on the right to "width" when given (a fixed input
// width), else to the next multiple of "pad_multiple" so lines of similar length share a
// shape and the model stage can batch them.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "pipeline/image_tensor.h"
#include "pipeline/steps/normalize_params.h"

namespace twinrt::pipeline {
namespace {

struct LineParams {
  int height = 48, width = 0, max_width = 2048, pad_multiple = 1;
};

class TextLineResize final : public Step {
 public:
  TextLineResize(parity::PreprocessSpec spec, LineParams p) : spec_(std::move(spec)), p_(p) {}

  Result<ValueMap> run(const ValueMap& inputs) const override {
    ASSIGN_OR_RETURN(Tensor t, tensor_input(inputs, "image", DataType::kUInt8, 3));
    ASSIGN_OR_RETURN(parity::RgbImage image, image_from_tensor(t, "input 'image'"));
    const int limit = p_.width > 0 ? p_.width : p_.max_width;
    const double ratio = static_cast<double>(image.width) / image.height;
    const int w = std::clamp(static_cast<int>(std::ceil(p_.height * ratio)), 1, limit);
    parity::PreprocessSpec spec = spec_;
    spec.resize = std::make_pair(w, p_.height);
    ASSIGN_OR_RETURN(Tensor resized, parity::image_to_tensor(image, spec));
    const int padded = p_.width > 0 ? p_.width : std::min(limit, (w + p_.pad_multiple - 1) / p_.pad_multiple * p_.pad_multiple);
    if (padded == w) return ValueMap{{"tensor", PipelineValue::single(std::move(resized))}};
    ASSIGN_OR_RETURN(Tensor out, Tensor::create(DataType::kFloat, {1, 3, p_.height, padded}));
    for (int64_t row = 0; row < 3 * static_cast<int64_t>(p_.height); ++row)
      std::memcpy(out.data<float>() + row * padded, resized.data<float>() + row * w, sizeof(float) * static_cast<size_t>(w));
    return ValueMap{{"tensor", PipelineValue::single(std::move(out))}};
  }

 private:
  parity::PreprocessSpec spec_;
  LineParams p_;
};

Result<std::unique_ptr<Step>> create(const nlohmann::json& params, const StepContext&) {
  std::vector<std::string> keys = kNormalizeKeys;
  keys.insert(keys.end(), {"height", "width", "max_width", "pad_multiple"});
  TRY(check_param_keys(params, keys));
  ASSIGN_OR_RETURN(parity::PreprocessSpec spec, normalize_params(params));
  LineParams p;
  ASSIGN_OR_RETURN(p.height, int_param(params, "height", p.height, 1));
  ASSIGN_OR_RETURN(p.width, int_param(params, "width", p.width, 0));
  ASSIGN_OR_RETURN(p.max_width, int_param(params, "max_width", p.max_width, 1));
  ASSIGN_OR_RETURN(p.pad_multiple, int_param(params, "pad_multiple", p.pad_multiple, 1));
  if (p.height > 4096 || p.width > 16384 || p.max_width > 16384)
    return invalid_argument("'height' is at most 4096, 'width' and 'max_width' at most 16384");
  return std::unique_ptr<Step>(new TextLineResize(std::move(spec), p));
}

TWINRT_REGISTER_STEP(text_line_resize, {"text_line_resize", "text-line crop -> float32[1,3,height,W], aspect kept, zero-padded",
                                        {"image"}, {"tensor"}, {}, create});

}  // namespace
}  // namespace twinrt::pipeline
