#include "parity/stb_image_decode.h"

#include <climits>
#include <memory>

// stb_image is third-party C; its implementation is compiled here and only here.
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_MAX_DIMENSIONS 16384
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#include <stb_image.h>
#pragma GCC diagnostic pop

namespace twinrt::parity {

Result<RgbImage> decode_rgb8(std::string_view bytes) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) return invalid_argument("file too large to decode");
  int width = 0, height = 0, channels_in_file = 0;
  std::unique_ptr<stbi_uc, decltype(&stbi_image_free)> data(
      stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), static_cast<int>(bytes.size()),
                            &width, &height, &channels_in_file, 3),
      &stbi_image_free);
  if (!data) return invalid_argument(std::string("not a readable PNG or JPEG image (stb_image: ") +
                                     stbi_failure_reason() + ")");
  RgbImage image{width, height, {}};
  image.pixels.assign(data.get(), data.get() + static_cast<size_t>(width) * static_cast<size_t>(height) * 3);
  return image;
}

}  // namespace twinrt::parity
