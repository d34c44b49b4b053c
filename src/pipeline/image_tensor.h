// Images between pipeline stages are uint8 tensors [H, W, 3] (RGB, interleaved), the same
// layout as parity::RgbImage, so the image steps reuse the parity toolkit's decode/resize.
#pragma once

#include "parity/image.h"
#include "twinrt/tensor.h"

namespace twinrt::pipeline {

Result<parity::RgbImage> image_from_tensor(const Tensor& t, const std::string& what);
Result<Tensor> tensor_from_image(const parity::RgbImage& image);

}  // namespace twinrt::pipeline
