// float32 average pooling fast paths.
//
// f32_avgpool_2d: 2-D windows without dilation, the reference kernel's result
// (kernels/ref/pool_ref.h: each output sums its taps inside the input from +0 in the
// window's row-major order, then divides once) in loops the compiler vectorizes over a row.
//
// f32_mean_8_lanes: the mean of a whole plane (GlobalAveragePool) in one fixed order of
// its own: lane j (0..7) sums elements j, j + 8, j + 16, ... of the full blocks of 8, the
// rest adds into lanes 0.. in order, the lanes combine as ((0+1)+(2+3))+((4+5)+(6+7)), and
// the sum is divided by n. The same bits at every vector width and in WebAssembly.
#pragma once

#include <cstdint>

#include "kernels/ref/image_window.h"

namespace twinrt::kernels {

// Whether f32_avgpool_2d handles the window: rank 2 and dilations of 1.
bool f32_avgpool_2d_applies(const ImageWindow& w);

void f32_avgpool_2d(const ImageWindow& w, const float* in, float* out, bool count_include_pad);

float f32_mean_8_lanes(const float* x, int64_t n);

}  // namespace twinrt::kernels
