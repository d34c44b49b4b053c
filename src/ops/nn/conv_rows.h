// float32 convolutions whose matrix product reads its B operand in place from the input's
// phase planes (kernels/conv/f32_phase_planes.h), one row of outputs at a time: no im2col
// copy. Each tile is the im2col product's tile (the same k order, the same kernel), so the
// bits are those of the im2col path in every mode.
#pragma once

#include <optional>

#include "ir/ir.h"
#include "kernels/gemm/f32_gemm.h"
#include "ops/fused/elementwise_program.h"
#include "ops/nn/conv_tiles.h"
#include "runtime/thread_pool.h"

namespace twinrt::nn {

// Whether conv_rows takes the convolution: 2-D windows other than pointwise, rows of outputs
// wider than one panel (a row's last panel is partly empty; the tile then runs half its
// vectors where it can: on SqueezeNet's 55-wide rows of 16 input channels that still beat
// im2col's copy by 10-20%, on 28- and 13-wide rows it did not), and a group's packed
// weights small enough to be read again for every block of rows.
bool conv_rows_applies(const ConvPlan& plan, const kernels::F32GemmKernel& tile);

// Whether conv_grid takes the convolution: 2-D windows other than pointwise, rows of outputs
// at most one panel wide, and a group's split input small enough to be read again for
// every panel of weights (conv_grid_input_fits). Its products run along the phase planes'
// grid, rows of `cols` positions one after the other, so that each tile is full (13 outputs
// of a 32-wide tile per row, the rest wasted, before); the columns whose windows overhang a
// row are computed and dropped.
bool conv_grid_applies(const ConvPlan& plan, const kernels::F32GemmKernel& tile);
bool conv_grid_input_fits(int64_t split_floats);

// The tile epilogue of image n, group g's product (its output channels' rows of
// positions): bias and residual (either may be null), then the clamp. Also conv.cc's.
kernels::F32Epilogue conv_epilogue(const ConvPlan& plan, int64_t n, int64_t g, const float* bias,
                                   const float* residual, const std::optional<ir::FusedClamp>& clamp);

// y = post(clamp(conv(x) + bias + residual)) for every image and group, from the weights
// packed into the tile's A panels (panel_count(out_per_group, mr) panels per group); bias,
// residual and post optional.
Status run_conv_rows(ThreadPool& pool, const kernels::F32GemmKernel& tile, const ConvPlan& plan, const float* x,
                     const float* packed_weights, const float* bias, const float* residual,
                     const std::optional<ir::FusedClamp>& clamp, const ChannelProgram& post, float* y);

// The same on conv_grid's products, each the im2col tile's dot product, the epilogue
// applied as the rows are moved into y: the bits of run_conv_rows and of im2col.
Status run_conv_grid(ThreadPool& pool, const kernels::F32GemmKernel& tile, const ConvPlan& plan, const float* x,
                     const float* packed_weights, const float* bias, const float* residual,
                     const std::optional<ir::FusedClamp>& clamp, const ChannelProgram& post, float* y);

}  // namespace twinrt::nn
