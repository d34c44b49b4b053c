// Depthwise 2-D convolution of one channel plane on the fast tiers: the result of
// kernels/ref/dwconv_ref.h's float kernel (taps in row-major order, padding skipped, bias
// added last), computed for many output columns at once in vector registers.
#pragma once

#include "kernels/ref/image_window.h"
#include "twinrt/session.h"

namespace twinrt::kernels {

using F32DwConvFn = void (*)(const ImageWindow& w, const float* in, const float* weights, float bias, float* out);

// The kernel of `isa` (never kAuto); `fma` selects the contracted variant (default mode).
// The exact variants give f32_dwconv2d_ref's bits on every tier.
F32DwConvFn f32_dwconv_kernel(Isa isa, bool fma);

}  // namespace twinrt::kernels
