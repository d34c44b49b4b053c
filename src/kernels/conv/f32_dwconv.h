// Depthwise 2-D convolution of channel planes on the fast tiers: for each plane the result
// of kernels/ref/dwconv_ref.h's float kernel (taps in row-major order, padding skipped,
// bias added last), then an optional clamp (a fused Relu/Clip), computed for many output
// columns at once in vector registers.
#pragma once

#include <cstdint>

#include "kernels/ref/image_window.h"
#include "twinrt/session.h"

namespace twinrt::kernels {

// `count` planes one after the other: plane i reads in + i * in_size, weights + i * taps,
// bias[i] (+0 when bias is null) and writes out + i * out_size.
struct F32DwConvPlanes {
  const float* in = nullptr;
  const float* weights = nullptr;
  const float* bias = nullptr;
  float* out = nullptr;
  int64_t count = 0;
  // After the bias: v < min ? min : v, then v > max ? max : v (NaN stays NaN).
  bool clamp = false;
  float min = 0.0f, max = 0.0f;
};

using F32DwConvFn = void (*)(const ImageWindow& w, const F32DwConvPlanes& planes);

// The AVX-512 and AVX2 kernels take planes 16 or 8 at a time (a vector's floats), one vector
// over the channels per output pixel, where that many planes' zero-padded input and output
// take at most kF32DwConvBlockFloats floats: callers pass whole blocks of kF32DwConvBlock.
constexpr int64_t kF32DwConvBlock = 16;
constexpr int64_t kF32DwConvBlockFloats = 128 * 1024;

// The kernel of `isa` (never kAuto); `fma` selects the contracted variant (default mode).
// The exact variants give f32_dwconv2d_ref's bits (then the clamp) on every tier.
F32DwConvFn f32_dwconv_kernel(Isa isa, bool fma);

}  // namespace twinrt::kernels
