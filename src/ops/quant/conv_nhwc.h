// 8-bit 2-D convolution on NHWC uint8 activations (the layout pass, passes/layout_nhwc.cc,
// keeps int8 regions in NHWC). The activations are never copied: each output pixel is a
// row of the product whose 4-byte depth groups the indirect tile reads in place, one
// input pixel per tap (an indirection buffer: pointers to the tap's input pixel, or to a
// row of zero points where the window leaves the image). The weights are the packed
// column panels, tap-major (k = tap * C + c), made once at session creation. Tiles that can
// requantize in their epilogue (AVX-512 VNNI) write bytes directly; otherwise each output
// row block is requantized while its int32 sums are in L1. The int32 sums are exact, so
// the bytes are those of the NCHW path (ops/quant/conv_integer.cc) on every tier. 3x3
// filters with stride 1 on tiers whose 16-bit products are as fast as their 8-bit ones
// (WebAssembly SIMD128, AVX2, the portable tier) run the exact Winograd form instead
// (conv_nhwc_winograd.cc): other sums on the way, the same ones at the end.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/gemm/i8_gemm.h"
#include "runtime/thread_pool.h"
#include "twinrt/tensor.h"

namespace twinrt::quant {

struct NhwcConvShape {
  int64_t batch = 1, in_h = 1, in_w = 1, channels = 4, out_h = 1, out_w = 1;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  int64_t pad_top = 0, pad_left = 0;
  int64_t taps() const { return kernel_h * kernel_w; }
};

struct NhwcConvWeights {
  const kernels::I8GemmKernel* kernel = nullptr;  // a tier with an indirect tile
  kernels::I8Panels panels;                       // out channels as column panels, signed (direct products)
  std::vector<kernels::I8Panels> winograd;        // or U' per transformed position (i8_winograd_weights)
  std::vector<int32_t> sums;                      // per out channel, the sum of its weights
};

// W int8 [M, C, kh, kw] with C a multiple of 4 (depth groups never straddle taps); nullopt
// otherwise. A 3x3 filter of a convolution with stride and dilation 1 (`unit_steps`) gets
// the exact Winograd form on tiers with an indirect_i16 tile, up to
// kernels::kI8WinogradMaxChannels input channels.
std::optional<NhwcConvWeights> pack_nhwc_conv_weights(Isa isa, const Tensor& w, bool unit_steps);

// A residual add after the convolution: y = QdqAdd(conv, x) with `params` (a: the
// convolution's uint8 result, b: x, the same NHWC shape), done on each block of output rows
// while it is in cache. The float operations are QdqAdd's, so the bytes are those of the
// separate nodes.
struct NhwcResidual {
  const uint8_t* x = nullptr;
  kernels::QdqAddParams params;
  kernels::I8QdqAddU8Fn add = nullptr;  // the tier's loop for params (quant::QdqAddLoop)
};

// y[n, oh, ow, m] = requantize_u8(sum over taps and c of (x - x_zero) * w, col_add[m],
// multiplier[m], y_zero), where col_add[m] = bias[m] - x_zero * (the sum of channel m's
// weights), wrapping in int32 (fold_nhwc_bias). Weights' zero points are 0. With a
// residual, y is then QdqAdd(y, residual->x).
void conv_nhwc_u8(ThreadPool& pool, const NhwcConvShape& s, const NhwcConvWeights& w, const uint8_t* x, uint8_t x_zero,
                  const int32_t* col_add, const float* multiplier, int32_t y_zero, uint8_t* y,
                  const NhwcResidual* residual = nullptr);

// conv_nhwc_u8 for weights in the Winograd form (conv_nhwc_winograd.cc); the same bytes.
void conv_nhwc_winograd_u8(ThreadPool& pool, const NhwcConvShape& s, const NhwcConvWeights& w, const uint8_t* x,
                           uint8_t x_zero, const int32_t* col_add, const float* multiplier, int32_t y_zero, uint8_t* y,
                           const NhwcResidual* residual);

// bias[m] - x_zero * sum of channel m's weights, in wrapping int32: the tile's column term.
std::vector<int32_t> fold_nhwc_bias(const NhwcConvWeights& w, const std::vector<int32_t>& bias, uint8_t x_zero);

}  // namespace twinrt::quant
