// im2col: lays out the input taps of each convolution output position as one column,
// so a convolution becomes a matrix product with the weights.
#pragma once

#include <cstdint>

#include "kernels/ref/image_window.h"

namespace twinrt::kernels {

// Writes the (channels * kernel size) x count matrix whose column j holds the taps of
// output position first + j (row-major over the output), row r = channel * kernel size
// + kernel offset. `image` is channels x in; taps in the padding read `pad`. `col` has
// row stride ld.
void f32_im2col_ref(const ImageWindow& w, const float* image, int64_t channels, int64_t first, int64_t count,
                    float pad, float* col, int64_t ld);
void f64_im2col_ref(const ImageWindow& w, const double* image, int64_t channels, int64_t first, int64_t count,
                    double pad, double* col, int64_t ld);
void u8_im2col_ref(const ImageWindow& w, const uint8_t* image, int64_t channels, int64_t first, int64_t count,
                   uint8_t pad, uint8_t* col, int64_t ld);
void i8_im2col_ref(const ImageWindow& w, const int8_t* image, int64_t channels, int64_t first, int64_t count,
                   int8_t pad, int8_t* col, int64_t ld);

// The adjoint of im2col over all output positions: adds each entry of the
// (channels * kernel size) x positions matrix `col` (row stride ld) into the image tap
// it came from; taps in the padding are dropped. Each image element receives its
// contributions in (row, position) order. Used by ConvTranspose.
void f32_col2im_ref(const ImageWindow& w, const float* col, int64_t ld, int64_t channels, float* image);

// Overloads so templated op code can call one name.
inline void im2col(const ImageWindow& w, const float* i, int64_t c, int64_t f, int64_t n, float p, float* o, int64_t ld) { f32_im2col_ref(w, i, c, f, n, p, o, ld); }
inline void im2col(const ImageWindow& w, const double* i, int64_t c, int64_t f, int64_t n, double p, double* o, int64_t ld) { f64_im2col_ref(w, i, c, f, n, p, o, ld); }
inline void im2col(const ImageWindow& w, const uint8_t* i, int64_t c, int64_t f, int64_t n, uint8_t p, uint8_t* o, int64_t ld) { u8_im2col_ref(w, i, c, f, n, p, o, ld); }
inline void im2col(const ImageWindow& w, const int8_t* i, int64_t c, int64_t f, int64_t n, int8_t p, int8_t* o, int64_t ld) { i8_im2col_ref(w, i, c, f, n, p, o, ld); }

}  // namespace twinrt::kernels
