#include "pipeline/image_tensor.h"

#include <cstring>

namespace twinrt::pipeline {

Result<parity::RgbImage> image_from_tensor(const Tensor& t, const std::string& what) {
  if (t.dtype() != DataType::kUInt8 || t.rank() != 3 || t.dim(2) != 3 || t.dim(0) < 1 || t.dim(1) < 1)
    return invalid_argument(what + " must be an image, uint8[H,W,3] with H, W >= 1, got " + dtype_name(t.dtype()) +
                            shape_to_string(t.shape()));
  if (t.dim(0) > (1 << 15) || t.dim(1) > (1 << 15))
    return invalid_argument(what + " is larger than 32768 pixels on a side: " + shape_to_string(t.shape()));
  parity::RgbImage image;
  image.height = static_cast<int>(t.dim(0));
  image.width = static_cast<int>(t.dim(1));
  image.pixels.resize(t.nbytes());
  std::memcpy(image.pixels.data(), t.raw(), t.nbytes());
  return image;
}

Result<Tensor> tensor_from_image(const parity::RgbImage& image) {
  ASSIGN_OR_RETURN(Tensor t, Tensor::create_for_overwrite(DataType::kUInt8, {image.height, image.width, 3}));
  if (t.nbytes()) std::memcpy(t.raw(), image.pixels.data(), t.nbytes());
  return t;
}

}  // namespace twinrt::pipeline
