// float32 2-D max pooling without dilation or indices: the reference kernel's result
// (kernels/ref/pool_ref.h: NaN taps are skipped, the first of equal maxima wins, a window
// with no number gives the lowest float) in a loop the compiler vectorizes over a row.
#pragma once

#include "kernels/ref/image_window.h"

namespace twinrt::kernels {

// Whether f32_maxpool_2d handles the window: rank 2 and dilations of 1.
bool f32_maxpool_2d_applies(const ImageWindow& w);

void f32_maxpool_2d(const ImageWindow& w, const float* in, float* out);

}  // namespace twinrt::kernels
