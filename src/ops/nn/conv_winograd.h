// float32 3x3 convolutions with stride 1 by Winograd F(2x2, 3x3) or F(4x4, 3x3)
// (kernels/conv/f32_winograd.h): the input and output transforms around 16 or 36 matrix
// products on the GEMM tiles. Value-changing (2.25x or 4x fewer multiplies, a different
// rounding than the direct sum), so default mode only.
#pragma once

#include <optional>

#include "ir/ir.h"
#include "kernels/conv/f32_winograd.h"
#include "ops/fused/elementwise_program.h"
#include "ops/nn/conv_tiles.h"
#include "ops/nn/f32_gemm_driver.h"
#include "ops/op.h"

namespace twinrt::nn {

// How a convolution's Winograd products run, chosen at session creation from the output
// size when it is known (docs/performance.md, "Winograd").
struct WinogradLayout {
  int tile = 2;  // F(tile x tile, 3x3): 2, or 4 where the image has blocks enough
  // The products as M^T = V^T U^T: the image's blocks are the GEMM's rows and the output
  // channels its columns, U's panels B panels. Where it computes fewer tile lanes: a 7 x 7
  // output has 16 blocks of 2 x 2, half of a 32-column panel one way and two whole 8-row
  // panels the other.
  bool blocks_as_rows = false;

  // The panel widths of the products' operands: V's (the blocks) and U's (the output
  // channels), A panels of mr rows or B panels of nr columns.
  int v_width(const kernels::F32GemmKernel& t) const { return blocks_as_rows ? t.mr : t.nr; }
  int u_width(const kernels::F32GemmKernel& t) const { return blocks_as_rows ? t.nr : t.mr; }
};

// The transformed weights, packed for their layout.
struct WinogradWeights {
  PackedF32 u;
  WinogradLayout layout;
};

// The transformed weights (points x out x in channels), when `w` is a constant float32
// [out, in, 3, 3] of a single-group convolution with strides and dilations 1, in default
// mode with value-changing kernels allowed, with enough channels to pay for the transforms;
// else nothing.
Result<WinogradWeights> pack_winograd_weights(const Tensor* w, const WindowAttrs& attrs, int64_t group,
                                              const KernelInit& init, const kernels::F32GemmKernel& tile);

// Whether a run's plan takes the Winograd path: 2-D, 3x3, stride and dilation 1, one group.
bool winograd_applies(const ConvPlan& plan);

// y = post(clamp(conv(x) + bias + residual)) for every image; residual and post optional.
Status run_winograd(ThreadPool& pool, const kernels::F32GemmKernel& tile, const kernels::WinogradTransforms& transforms,
                    const ConvPlan& plan, const float* x,
                    const float* u_panels, WinogradLayout layout, const float* bias, const float* residual,
                    const std::optional<ir::FusedClamp>& clamp, const ChannelProgram& post, float* y);

}  // namespace twinrt::nn
