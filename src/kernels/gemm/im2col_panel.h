// im2col straight into GEMM B panels for 2-D windows: the taps of output positions
// [first, first + count) as `panels` panels of (channels * kernel_h * kernel_w) x width,
// one after the other (count <= panels * width; panel q takes the next `width` positions),
// each row-major over (channel, kh, kw); taps in the padding and columns past `count` are
// zero. The same values as f32_im2col_ref, written run by run (a row of output positions
// reads one input line, copied as a block when the stride is 1). Each channel is copied
// into every panel before the next: its input rows are read along the row across the
// panels (a few streams at a time, not three rows of every channel per panel). width <= 64
// (the widest tile kernel's panel).
#pragma once

#include <cstdint>

#include "kernels/ref/image_window.h"

namespace twinrt::kernels {

void f32_im2col_panels_2d(const ImageWindow& w, const float* image, int64_t channels, int64_t first, int64_t count,
                          int64_t panels, int width, float* out);

}  // namespace twinrt::kernels
