// Winograd F(T x T, 3x3) transforms, T = 2 or 4, for float32 3x3 convolutions with stride 1
// (default mode).
//
// A T x T block of outputs of one output channel is A^T [sum over input channels of
// (G g G^T) * (B^T d B)] A, with g the 3x3 filter and d the alpha x alpha input block under
// it (alpha = T + 2): the elementwise products of transformed blocks replace 9 T^2 multiplies
// per input channel with alpha^2 (F(2x2): 36 -> 16, F(4x4): 144 -> 36), and for each of the
// alpha^2 positions the sum over input channels is one matrix product (U[xi]: out x in
// channels) x (V[xi]: in channels x blocks). The result is not the direct sum's bits: F(2x2)
// stays within a few float roundings of it, F(4x4)'s larger constants (up to 8 in A, 5 in
// B, 1/24 in G) within about ten times that. Value-changing, default mode only
// (docs/numerics.md).
#pragma once

#include <cstdint>

#include "twinrt/session.h"

namespace twinrt::kernels {

// Transformed positions per block of F(tile x tile, 3x3).
constexpr int winograd_points(int tile) { return (tile + 2) * (tile + 2); }

// The 2-D geometry of one image: input planes in_h x in_w, padding before (pad_top,
// pad_left), outputs out_h x out_w, cut into ceil(out / tile) blocks per dimension. The
// transforms work on a band of block rows [band_first, band_end) (the whole image by
// default), whose blocks are numbered from 0 row by row.
struct WinogradGeometry {
  int tile = 2;  // T: 2 or 4
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0, pad_top = 0, pad_left = 0;
  int64_t band_first = 0, band_end = -1;
  int points() const { return winograd_points(tile); }
  int64_t blocks_h() const { return (out_h + tile - 1) / tile; }
  int64_t blocks_w() const { return (out_w + tile - 1) / tile; }
  int64_t band_rows() const { return (band_end < 0 ? blocks_h() : band_end) - band_first; }
  int64_t blocks() const { return band_rows() * blocks_w(); }  // in the band
};

// U[xi][o][c] = (G g[o][c] G^T)[xi] of F(tile x tile, 3x3), for weights [out, in, 3, 3]; `u`
// holds winograd_points(tile) * out * in floats.
void f32_winograd_weights(const float* weights, int64_t out_channels, int64_t in_channels, int tile, float* u);

// Floats of one V matrix in the layout `input` writes.
inline int64_t winograd_v_floats(const WinogradGeometry& g, int64_t in_channels, int nr) {
  return (g.blocks() + nr - 1) / nr * nr * in_channels;
}

// What joins the transformed sums of an output channel: y = clamp(A^T M A + bias + residual).
struct WinogradOutputStep {
  const float* bias = nullptr;      // the channel's bias, or null
  const float* residual = nullptr;  // the channel's plane, out_h x out_w, or null
  bool clamp = false;
  float min = 0.0f, max = 0.0f;
};

// The widest panel the transforms write (the tiles' panels are at most 32 wide).
constexpr int64_t kMaxPanelWidth = 32;

// The transforms' scratch for a band, in floats, with vectors of `lanes` floats: the input
// transform's zero-padded input rows (window columns T k + j of every block fit, k rounded
// up to whole vectors), two sets (for alternate channels) of strips of window values (one
// per position in the block, whole vectors of blocks and one more: a row's last vector
// spills into the next row's place), and the transformed blocks; the output transform's
// T^2 rows of outputs per block (and a vector more).
struct WinogradScratch {
  int64_t lanes = 0;  // the band's blocks rounded up to whole vectors
  int64_t input_rows = 0, padded_width = 0, strip = 0;
  int64_t result_row = 0;  // whole vectors of blocks and room for a panel's columns past them
  int64_t floats = 0;  // the larger of the two transforms' needs
};
// Defined once, in the portable object: an inline function emitted in an ISA folder's
// object could be picked by the linker for code that runs on any CPU.
WinogradScratch winograd_scratch(const WinogradGeometry& g, int64_t lanes);

// The transforms of one ISA tier, on vectors of `lanes` floats. Each call takes a scratch
// buffer of winograd_scratch(g, lanes).floats floats of its own.
struct WinogradTransforms {
  int64_t lanes;
  // V[xi] (in channels x blocks) = (B^T d B)[xi], xi < g.points(), for input channels [c0, c1) of one band
  // (planes in_h x in_w, zeros outside), written as the GEMM's packed B panels of `nr` blocks
  // (element (c, b) at (b / nr) * in_channels * nr + c * nr + b % nr; kernels/gemm/f32_gemm.h),
  // so the products read them as they are. V's matrices are `v_stride` floats apart; the
  // last panel's columns past the last block are zeros.
  void (*input)(const WinogradGeometry& g, const float* image, int64_t in_channels, int64_t c0, int64_t c1, int nr,
                float* v, int64_t v_stride, float* scratch);
  // Output channel `o`'s rows of the band (of its plane `plane`) from M[xi][o][b], xi < g.points() (matrices
  // `m_stride` floats apart, rows of `blocks` floats; whole vectors are read up to `lanes`
  // floats past the last row's end, so the buffer holding M needs that much room after it).
  void (*output)(const WinogradGeometry& g, const float* m, int64_t m_stride, int64_t o,
                 const WinogradOutputStep& step, float* plane, float* scratch);
};

// The transforms of `isa` (never kAuto).
const WinogradTransforms& f32_winograd_transforms(Isa isa);

}  // namespace twinrt::kernels
