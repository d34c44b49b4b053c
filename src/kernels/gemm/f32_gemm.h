// float32 matrix-product tiles on packed operands, one implementation per ISA tier.
//
// C (m x n) = epilogue(A (m x k) · B (k x n)). A is consumed in panels of `mr` rows,
// stored k-major (panel[p * mr + r] = A[r][p]); B in panels of `nr` columns
// (panel[p * nr + j] = B[p][j]). Rows and columns past the matrix edge are padding
// (zero after packing) and are never stored.
//
// Numerics (docs/numerics.md): every output element is one dot product in k order,
// started from +0, into a float accumulator. The exact kernels round each product and
// each sum (separate multiply and add), so a tile gives the same bits at any vector
// width — scalar, SSE2, AVX2, AVX-512 and WebAssembly SIMD128 alike — and so do the
// epilogue's operations. The fma kernels contract multiply and add (default mode).
#pragma once

#include <cstddef>
#include <cstdint>

#include "twinrt/session.h"

namespace twinrt::kernels {

// Applied to the finished dot products, in this order:
//   v = alpha * acc            (skipped when alpha == 1)
//   v = v + beta * bias[i, j]  (when bias is set; bias[i, j] = bias[i * bias_rs + j * bias_cs])
//   v = v + residual[i * residual_rs + j]  (when residual is set: a fused Add)
//   v = v < min ? min : v;  v = v > max ? max : v   (when clamp is set; NaN passes)
// Each step rounds to float, so a fused Add or Relu gives the bits of the separate op.
struct F32Epilogue {
  float alpha = 1.0f;
  const float* bias = nullptr;
  int64_t bias_rs = 0, bias_cs = 0;  // bias_cs is 0 (one value per row) or 1
  float beta = 1.0f;
  const float* residual = nullptr;
  int64_t residual_rs = 0;
  bool clamp = false;
  float min = 0.0f, max = 0.0f;
};

// One tile: rows <= mr, cols <= nr of C at `c` (row stride ldc) from an A panel and a B
// panel of k entries each. The epilogue may be null: then C gets the raw dot products.
// With `accumulate` the sums start from C's values instead of +0: a product split along k
// continues each dot product where the previous part left it, so the result has the bits
// of the unsplit product (a float stored and loaded back is the same float).
struct F32TileArgs {
  int64_t k = 0;
  const float* a = nullptr;
  const float* b = nullptr;
  // Floats from one k entry of the B panel to the next: 0 for a packed panel (nr); a row
  // stride to read nr columns of a row-major B in place.
  int64_t b_stride = 0;
  // Or, when set, k entry p of B is the nr floats at b + b_offsets[p] (a convolution's
  // window rows read in place: ops/nn/conv_rows.h). All nr are read, also in an edge tile.
  const int64_t* b_offsets = nullptr;
  float* c = nullptr;
  int64_t ldc = 0;
  int rows = 0, cols = 0;
  // Full A panels to compute in this call (rows is then mr), one after the other in A (k * mr
  // floats apart) and in C: with a few columns each panel's dot products are one chain of
  // adds through all of k, and a kernel may interleave several panels' chains.
  int64_t a_panels = 1;
  bool accumulate = false;
  int64_t row0 = 0, col0 = 0;  // the tile's position in C, for the epilogue's bias
  const F32Epilogue* epilogue = nullptr;
};
using F32TileFn = void (*)(const F32TileArgs&);

struct F32GemmKernel {
  const char* name;  // <dtype>_<op>_<mr>x<nr>__<isa>, as in bench and test output
  int mr, nr;
  F32TileFn tile;
};

// The tile kernel of `isa` (never kAuto); `fma` selects the contracted variant.
const F32GemmKernel& f32_gemm_kernel(Isa isa, bool fma);

// Packing into panels. Source element (i, j) is src[i * rs + j * cs]; the panels of a
// dimension of size `count` take panel_count(count, width) * k floats.
inline int64_t panel_count(int64_t count, int width) { return (count + width - 1) / width; }
// A panel of `width` rows/columns starting at `first` (k-major, zero-padded to width):
// out[p * width + r] = src[(first + r) * outer_stride + p * k_stride].
void f32_pack_panel(const float* src, int64_t outer_stride, int64_t k_stride, int64_t first, int64_t count,
                    int64_t k, int width, float* out);
// `panels` panels from panel `first_panel` on, one after the other. Rows of B (outer_stride
// 1) are read along the row across the panels: a few contiguous cache lines per row
// instead of one line per row and panel, each in another page on large images.
void f32_pack_panel_block(const float* src, int64_t outer_stride, int64_t k_stride, int64_t count,
                          int64_t first_panel, int64_t panels, int64_t k, int width, float* out);
// Every panel of an outer x k operand, one after the other.
void f32_pack_panels(const float* src, int64_t outer_stride, int64_t k_stride, int64_t outer, int64_t k,
                     int width, float* out);

}  // namespace twinrt::kernels
