// 2-D max pooling without dilation or indices, for float32 and 8-bit integers: the
// reference kernel's result (kernels/ref/pool_ref.h: NaN taps are skipped, the first of
// equal maxima wins, a window with no number gives the type's lowest value) in a loop the
// compiler vectorizes over a row.
#pragma once

#include <cstdint>

#include "kernels/ref/image_window.h"

namespace twinrt::kernels {

// Whether the kernels below handle the window: rank 2 and dilations of 1.
bool maxpool_2d_applies(const ImageWindow& w);

void f32_maxpool_2d(const ImageWindow& w, const float* in, float* out);
void u8_maxpool_2d(const ImageWindow& w, const uint8_t* in, uint8_t* out);
void i8_maxpool_2d(const ImageWindow& w, const int8_t* in, int8_t* out);

}  // namespace twinrt::kernels
