// A float32 convolution computed transposed: C^T (output positions x output channels) =
// im2col^T (positions x taps) · W^T (taps x output channels), with the weights packed as
// B panels when the session is created, then written back to Y's channel planes.
//
// For convolutions with few output positions: the positions are the tile's columns in the
// usual product and fill them badly (ResNet-50's 7 x 7 stage: 49 positions take 64
// columns of the 12 x 32 AVX-512 tile), while as rows they take 52. Each output is the
// same dot product in the same order either way, and the epilogue runs the same steps, so
// the bits do not depend on the layout.
#pragma once

#include <optional>

#include "ir/ir.h"
#include "kernels/gemm/f32_gemm.h"
#include "ops/fused/elementwise_program.h"
#include "ops/nn/conv_tiles.h"
#include "runtime/thread_pool.h"
#include "twinrt/status.h"

namespace twinrt::nn {

// Whether the transposed product costs a tenth less for `out_channels` (per group) x
// `positions` outputs of `taps` multiply-adds each: the tile lanes it computes, and the
// write-back of C^T.
bool positions_as_rows(const kernels::F32GemmKernel& tile, int64_t out_channels, int64_t positions, int64_t taps);

// y = post(clamp(conv(x) + bias + residual)) with the weights' B panels (one block per
// group: pack_f32_constant with width tile.nr); bias, residual and post are optional.
Status run_conv_positions_as_rows(ThreadPool& pool, const kernels::F32GemmKernel& tile, const ConvPlan& plan,
                                  const float* x, const float* weight_panels, const float* bias,
                                  const float* residual, const std::optional<ir::FusedClamp>& clamp,
                                  const ChannelProgram& post, float* y);

}  // namespace twinrt::nn
