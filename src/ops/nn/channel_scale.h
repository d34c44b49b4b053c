// A ChannelScaledConv (passes/fuse_channel_scale.cc): a pointwise Conv of X times one factor per
// input channel, the factors applied by the tile kernels' operands instead of a Mul's
// product in memory.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "twinrt/tensor.h"

namespace twinrt::nn {

// Image n's factor for input channel c is data[n * image_stride + c].
struct ChannelScale {
  const float* data = nullptr;
  int64_t image_stride = 0;
};

// The operands of a ChannelScaledConv's Mul as the input and its per-channel factors, when
// both are float32 and one is [N or 1, C, 1, ...] for the other's [N, C, ...] with C > 1
// input channels; else none (the kernel then multiplies them out first).
std::optional<std::pair<const Tensor*, ChannelScale>> split_channel_scale(const Tensor& a, const Tensor& b);

// B panels [first / nr, first / nr + panels) of a pointwise Conv's input image (`taps`
// channels of `positions` floats), each element times its channel's factor: the Mul's
// rounded products, summed by the tiles as the separate Conv sums them (the same bits).
void pack_scaled_panels(const float* image, const float* factors, int64_t taps, int64_t positions, int64_t first,
                        int64_t panels, int nr, float* out);

// `panels` A panels of weights (each `taps` entries of `mr` rows, tap-major), tap k's entries
// times factors[k]: W diag(f) X instead of W (diag(f) X), a rounding per weight instead of one
// per input element. Value-changing (default mode); where the output channels are few
// against the positions it scales a small fraction of what the input panels hold, and B is
// read in place (EfficientNet-B0's 144 -> 24 projection at 56 x 56: 0.19 ms scaling its input,
// 0.11 as a plain 1x1 convolution).
void scale_weight_panels(const float* panels, int64_t count, int64_t taps, int mr, const float* factors, float* out);

}  // namespace twinrt::nn
