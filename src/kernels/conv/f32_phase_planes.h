// A 2-D window's input split into its stride phases, zero-padded: with them every tap of a
// row of outputs is a run of consecutive floats, so a convolution's matrix product can read
// its B operand in place (ops/nn/conv_rows.h) instead of copying windows (im2col).
//
// Phase (a, b) of channel c is the padded input's rows a, a + s_h, ... and columns b,
// b + s_w, ...: plane[i][j] = padded[c][i * s_h + a][j * s_w + b]. Tap (kh, kw) of output
// (oh, ow) is then plane (kh * d_h % s_h, kw * d_w % s_w) at row oh + kh * d_h / s_h and
// column ow + kw * d_w / s_w.
#pragma once

#include <cstdint>

#include "kernels/ref/image_window.h"

namespace twinrt::kernels {

struct PhasePlanes {
  int64_t stride_h = 1, stride_w = 1;
  int64_t rows = 0, cols = 0;  // of each phase plane: what the windows reach
  int64_t plane_floats() const { return rows * cols; }
  int64_t channel_floats() const { return stride_h * stride_w * plane_floats(); }
};

PhasePlanes phase_planes(const ImageWindow& w);

// Phase planes [c0, c1) of `channels` planes' split (channel c's stride_h * stride_w planes
// one after the other, channel after channel) into out, from the image's planes: of each,
// `band.rows` rows from row `row0` on (band: phase_planes(w), or it with fewer rows, so that a
// block of output rows can split only the rows it reads), rows past the plane's end zero.
void f32_split_phases(const ImageWindow& w, const float* image, int64_t c0, int64_t c1, int64_t row0,
                      const PhasePlanes& band, float* out);

// offsets[p] for tap p = (c, kh, kw) in the weights' order (c * kernel_h * kernel_w + kh *
// kernel_w + kw): where output (row0, 0)'s tap p lies in a split of planes `band.rows` rows
// high from row0 on; output (row0 + i, ow)'s lies i * cols + ow further.
void phase_tap_offsets(const ImageWindow& w, int64_t channels, const PhasePlanes& band, int64_t* offsets);

}  // namespace twinrt::kernels
