// What a fused pointwise Conv does to each input channel before its product, applied by the
// tile kernels' operands instead of a separate op's output in memory:
// - ChannelScaledConv (passes/fuse_channel_scale.cc): X times one factor per input channel;
// - NormalizedConv (passes/fuse_normalized_input.cc): BatchNormalization's
//   (X - centre) * factor + shift per input channel, then its clamp.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "kernels/elementwise/f32_steps.h"
#include "twinrt/tensor.h"

namespace twinrt::nn {

// Image n's input channel c is row c of `rows` (kernels::F32RowMap: x times its factor, or
// (x - centre) * factor + shift and the clip), its factor at rows.factor[n * image_stride + c]
// (a NormalizedConv's are the same for every image). Each operation is rounded to float, in
// the order of the separate op's step kernel, so the same bits.
struct ChannelMap {
  kernels::F32RowMap rows;
  int64_t image_stride = 0;

  bool applies() const { return rows.factor != nullptr; }
  bool normalizes() const { return rows.centre != nullptr; }
  // The map of image n.
  ChannelMap of_image(int64_t n) const {
    ChannelMap m = *this;
    m.rows.factor += n * image_stride;
    return m;
  }
};

// The operands of a ChannelScaledConv's Mul as the input and its per-channel factors, when
// both are float32 and one is [N or 1, C, 1, ...] for the other's [N, C, ...] with C > 1
// input channels; else none (the kernel then multiplies them out first).
std::optional<std::pair<const Tensor*, ChannelMap>> split_channel_scale(const Tensor& a, const Tensor& b);

// B panels [first / nr, first / nr + panels) of a pointwise Conv's input image (`taps`
// channels of `positions` floats), each element mapped by `map` (of this image) on the tier's
// kernel `map_panel`: the separate op's rounded results, summed by the tiles as the separate
// Conv sums them (the same bits).
void pack_mapped_panels(kernels::F32MapPanelFn map_panel, const float* image, const ChannelMap& map, int64_t taps,
                        int64_t positions, int64_t first, int64_t panels, int nr, float* out);

// `panels` A panels of weights (each `taps` entries of `mr` rows, tap-major), tap k's entries
// times factors[k]: W diag(f) X instead of W (diag(f) X), a rounding per weight instead of one
// per input element. Value-changing (default mode); where the output channels are few
// against the positions it scales a small fraction of what the input panels hold, and B is
// read in place (EfficientNet-B0's 144 -> 24 projection at 56 x 56: 0.19 ms scaling its input,
// 0.11 as a plain 1x1 convolution).
void scale_weight_panels(const float* panels, int64_t count, int64_t taps, int mr, const float* factors, float* out);

}  // namespace twinrt::nn
