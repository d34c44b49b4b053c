// Pooling over one image plane (one channel of one image). `out` holds the window's
// output positions in row-major order; taps in the padding never contribute.
#pragma once

#include <cstdint>

#include "kernels/ref/image_window.h"

namespace twinrt::kernels {

// Max over the taps inside the input (NaN taps are skipped). `argmax`, when not null,
// receives the row-major plane index of the first maximum.
void f32_maxpool_ref(const ImageWindow& w, const float* in, float* out, int64_t* argmax);
void f64_maxpool_ref(const ImageWindow& w, const double* in, double* out, int64_t* argmax);
void u8_maxpool_ref(const ImageWindow& w, const uint8_t* in, uint8_t* out, int64_t* argmax);
void i8_maxpool_ref(const ImageWindow& w, const int8_t* in, int8_t* out, int64_t* argmax);

// Sum of the taps inside the input divided by their count, or, with count_include_pad,
// by the number of taps inside the padded input. `f64acc` variants sum in double.
void f32_avgpool_ref(const ImageWindow& w, const float* in, float* out, bool count_include_pad);
void f32_avgpool_f64acc_ref(const ImageWindow& w, const float* in, float* out, bool count_include_pad);
void f64_avgpool_ref(const ImageWindow& w, const double* in, double* out, bool count_include_pad);

// (sum of |x|^p over the taps inside the input)^(1/p).
void f32_lppool_ref(const ImageWindow& w, const float* in, float* out, int64_t p);
void f32_lppool_f64acc_ref(const ImageWindow& w, const float* in, float* out, int64_t p);
void f64_lppool_ref(const ImageWindow& w, const double* in, double* out, int64_t p);

}  // namespace twinrt::kernels
