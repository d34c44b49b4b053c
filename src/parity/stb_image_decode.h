// The one place twinrt calls stb_image (Debian libstb-dev), restricted to PNG and JPEG.
#pragma once

#include <string_view>

#include "parity/image.h"

namespace twinrt::parity {

// Decodes PNG or JPEG bytes to 8-bit RGB. Errors carry stb's failure reason.
Result<RgbImage> decode_rgb8(std::string_view bytes);

}  // namespace twinrt::parity
