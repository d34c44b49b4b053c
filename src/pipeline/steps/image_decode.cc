// image_decode: the bytes of a PNG or JPEG file (uint8[n]) -> image uint8[H,W,3].
// Decoding in the pipeline (not in the caller) keeps the pixels identical natively and in
// WebAssembly: both use the same stb_image code.
#include "parity/stb_image_decode.h"
#include "pipeline/image_tensor.h"
#include "pipeline/step.h"

namespace twinrt::pipeline {
namespace {

class ImageDecode final : public Step {
 public:
  Result<ValueMap> run(const ValueMap& inputs) const override {
    ASSIGN_OR_RETURN(Tensor bytes, tensor_input(inputs, "bytes", DataType::kUInt8, 1));
    auto image = parity::decode_rgb8(std::string_view(static_cast<const char*>(bytes.raw()), bytes.nbytes()));
    if (!image) return image.status().with_context("input 'bytes': ");
    ASSIGN_OR_RETURN(Tensor t, tensor_from_image(*image));
    return ValueMap{{"image", PipelineValue::single(std::move(t))}};
  }
};

TWINRT_REGISTER_STEP(image_decode, {"image_decode", "PNG/JPEG file bytes -> RGB image uint8[H,W,3]", {"bytes"}, {"image"}, {},
                                    [](const nlohmann::json& params, const StepContext&) -> Result<std::unique_ptr<Step>> {
                                      TRY(check_param_keys(params, {}));
                                      return std::unique_ptr<Step>(new ImageDecode());
                                    }});

}  // namespace
}  // namespace twinrt::pipeline
