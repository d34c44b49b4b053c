// Depthwise 2-D convolution of one channel plane (a group with one input channel):
// out[oh][ow] = sum over kernel taps (kh, kw) in row-major order of
// w[kh][kw] * in[oh*sh - ph + kh*dh][ow*sw - pw + kw*dw], then + bias. Taps in the
// padding are skipped. The sum order matches im2col + GEMM, without copying the taps.
#pragma once

#include "kernels/ref/image_window.h"

namespace twinrt::kernels {

// `w` must have rank 2. Float accumulation (Mode::kDefault).
void f32_dwconv2d_ref(const ImageWindow& w, const float* in, const float* weights, float bias, float* out);
// Double accumulation, rounded once (Mode::kReference).
void f32_dwconv2d_f64acc_ref(const ImageWindow& w, const float* in, const float* weights, float bias, float* out);

}  // namespace twinrt::kernels
