// 8-bit integer matrix products on packed operands, one tile implementation per ISA tier.
//
// C[i][j] = sum_k (R[i][k] - zr[i]) * (S[k][j] - zs[j]) in int32, wrapping modulo 2^32
// exactly like kernels/ref/qgemm_ref (the reference these kernels are tested against).
// Every operand is uint8 or int8; packing moves one operand into the unsigned domain
// and the other into the signed domain (x ^ 0x80 turns int8 v into uint8 v + 128 and
// uint8 v into int8 v - 128), because the hardware instructions multiply uint8 by int8
// (VNNI vpdpbusd) or are given both as int16 (vpmaddwd, WebAssembly i32x4.dot_i16x8_s).
// The tiles return the raw sums of products of the packed values; the zero points and
// the domain shifts are folded in afterwards with the row and column sums:
//   sum (r - zr)(s - zs) = sum r*s - zs * sum r - zr * sum s + k * zr * zs
// which holds modulo 2^32, so every tier gives the reference's bits. vpmaddubsw's int16
// pair sums saturate for full-range int8 (255 * 127 * 2 > 32767), so AVX2 uses it only in
// the tiles for 7-bit signed panels (values in [-64, 64], where the sums are exact).
#pragma once

#include <cstdint>
#include <vector>

#include "twinrt/session.h"

namespace twinrt::kernels {

// Packed panels: `width` rows (or columns) at a time, k in groups of 4 bytes
// (panel[(p / 4) * width * 4 + r * 4 + p % 4] = value of row r at depth p), zero padded.
struct I8Panels {
  int width = 0;
  int64_t outer = 0, k = 0, k_groups = 0;
  bool is_unsigned = false;     // the domain the bytes are in
  bool signed_7bit = false;     // signed, and every value in [-64, 64] (the *_7bit tiles' condition)
  int value_bytes = 1;          // 2: values widened to 16 bits: unsigned rows by i8_widen_rows (same
                                //    order), or columns by a kernel's arrange_wide_cols (its order)
  std::vector<uint8_t> bytes;   // panel_count(outer, width) * k_groups * width * 4 * value_bytes
  std::vector<int32_t> sums;    // per row/column: the sum of its packed values, `outer` entries
  const uint8_t* panel(int64_t i) const { return bytes.data() + i * k_groups * width * 4 * value_bytes; }
};

// One tile: rows <= mr of C from a row panel, cols <= nr from a column panel:
//   c[r][j] = sum over k_groups * 4 depths of row[r] * col[j] + row_add[r] + col_add[j]
// (wrapping), written with row stride ldc. row_add has mr entries, col_add nr.
struct I8TileArgs {
  int64_t k_groups = 0;
  const uint8_t* rows = nullptr;
  const uint8_t* cols = nullptr;
  int32_t* c = nullptr;
  int64_t ldc = 0;
  int row_count = 0, col_count = 0;
  const int32_t* row_add = nullptr;
  const int32_t* col_add = nullptr;
  // Indirect tiles only (rows unused): `taps` steps of k_groups groups each; at step t,
  // row r's 4 values of group g are at indirect[t * mr + r][4 g] (uint8; uint16 where the
  // kernel's indirect_row_bytes is 2: at byte 8 g) (unpacked rows read in
  // place: NHWC pixels, each tap of a window pointing at its input pixel or a padding row).
  // The column panel holds the taps * k_groups groups in that order.
  const uint8_t* const* indirect = nullptr;
  int64_t taps = 1;
  // Requantized output, for kernels whose indirect_requantizes_u8 is set (only their
  // indirect_u8 reads these): with y set, the tile writes
  //   y[r * ldy + j] = requantize_u8(c[r][j], bias 0, y_multiplier[j], y_zero)
  // (the same operations as requantize_u8, so the same bytes) and leaves c alone.
  uint8_t* y = nullptr;
  int64_t ldy = 0;
  const float* y_multiplier = nullptr;  // col_count entries
  int32_t y_zero = 0;
};
using I8TileFn = void (*)(const I8TileArgs&);

using I8RequantizeU8Fn = void (*)(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier,
                                  int64_t multiplier_stride, int32_t zero_point, uint8_t* out);
using I8RequantizeS8Fn = void (*)(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier,
                                  int64_t multiplier_stride, int32_t zero_point, int8_t* out);
using I8QuantizeU8Fn = void (*)(const float* x, int64_t n, float scale, int32_t zero_point, uint8_t* out);
using I8QuantizeS8Fn = void (*)(const float* x, int64_t n, float scale, int32_t zero_point, int8_t* out);

// QdqAdd's step (ops/quant/qdq_add.cc) on contiguous uint8 a, b and y:
//   y[i] = quantize_u8(relu?(float(a[i] - a_zero) * a_scale + float(b[i] - b_zero) * b_scale), y_scale, y_zero)
// with Relu as x < 0 ? 0 : x: the float operations of the separate nodes, so the same bytes.
struct QdqAddParams {
  float a_scale = 1, b_scale = 1, y_scale = 1;
  int32_t a_zero = 0, b_zero = 0, y_zero = 0;
  bool relu = false;
  bool operator==(const QdqAddParams&) const = default;
};
using I8QdqAddU8Fn = void (*)(const uint8_t* a, const uint8_t* b, int64_t n, const QdqAddParams& p, uint8_t* y);

struct I8GemmKernel {
  const char* name;      // i8_gemm_<mr>x<nr>__<isa>
  int mr, nr;
  I8TileFn rows_u8;      // row panels unsigned, column panels signed
  I8TileFn rows_s8;      // row panels signed, column panels unsigned
  I8TileFn rows_u8_7bit;  // the same when the signed panels are 7-bit; null where no faster tile exists
  I8TileFn rows_s8_7bit;
  I8TileFn rows_u16;     // row panels unsigned and widened (value_bytes 2), columns signed; null where
                         // no faster tile exists (then rows are not widened)
  I8TileFn indirect_u8;       // rows read through I8TileArgs::indirect, unsigned; columns signed
  I8TileFn indirect_u8_7bit;  // the same for 7-bit column panels; null where no faster tile exists
  I8RequantizeU8Fn requantize_u8;  // requantize_u8/_s8 below, compiled for this tier
  I8RequantizeS8Fn requantize_s8;
  I8QuantizeU8Fn quantize_u8;      // quantize_u8/_s8 below, compiled for this tier
  I8QuantizeS8Fn quantize_s8;
  I8QdqAddU8Fn qdq_add_u8 = nullptr;  // null (the native scalar tier): the caller's own loop or qdq_add_u8 below
  // Rewrites column panels packed by i8_pack (width nr, signed) into the layout this
  // kernel's tiles on 16-bit rows read (indirect_u8 with indirect_row_bytes 2, rows_u16),
  // once per constant; null: they read i8_pack's layout.
  void (*arrange_wide_cols)(I8Panels&) = nullptr;
  // 2: indirect_u8 reads rows of uint16 values (the NHWC input widened once per call, so the
  // tile does not widen each row once per column panel); 1: the uint8 input in place.
  int indirect_row_bytes = 1;
  // indirect_u8 requantizes in its epilogue when I8TileArgs::y is set: the int32 sums go
  // from registers to bytes without a round trip through memory.
  bool indirect_requantizes_u8 = false;
  // qdq_add_u8 with the division by y_scale done as a product with its reciprocal and one
  // fused multiply-add correction (Markstein's; a division is ten times slower). Callers use
  // it only where qdq_add_by_inverse_is_exact holds; null where no faster loop exists.
  I8QdqAddU8Fn qdq_add_u8_by_inverse = nullptr;
  // indirect_u8's products on int16 rows (indirect_row_bytes 2 regardless) and int16 column
  // panels in pair order (i8_pair_index), values within +-2^15 whose pair products and sums
  // fit int32: the products of the exact 8-bit Winograd convolution (kernels/conv/i8_winograd.h).
  // Null on VNNI, whose 8-bit products run at twice the rate of 16-bit ones: Winograd's
  // 2.25x fewer products would not pay for its transforms.
  I8TileFn indirect_i16 = nullptr;
};

// Where value (column j, depth d of a 4-depth group) lies in a group of an int16 column
// panel of width nr in pair order: depth pair d / 2 is a block of 2 * nr values in which
// column j's two depths are adjacent, so one 32-bit row broadcast against the block feeds a
// multiply-add of int16 pairs (vpmaddwd, i32x4.dot_i16x8_s) for nr / 4 columns per vector.
constexpr int64_t i8_pair_index(int nr, int j, int d) { return (d / 2) * 2 * nr + j * 2 + d % 2; }

// The tile kernel for `isa` (never kAuto): AVX-512 uses VNNI when the CPU has it
// (AVX-512 without VNNI falls back to the AVX2 tiles).
const I8GemmKernel& i8_gemm_kernel(Isa isa);
// The kernel of the indirect (NHWC convolution) tiles for `isa`: i8_gemm_kernel's natively,
// and in WebAssembly SIMD128 builds a 4x8 tile of its own shape (on arranged columns and
// widened rows).
const I8GemmKernel& i8_indirect_kernel(Isa isa);

// Packs an outer x k operand whose element (i, p) is src[i * outer_stride + p * k_stride]
// (uint8 when src_unsigned, else int8) into panels of `width` in the requested domain.
// Only rows/columns [first, first + count) are packed, as panels from `first`.
// with_sums = false leaves out.sums at 0: for when every zero point of the other operand
// is 0, which multiplies these sums by 0 (symmetric weights: the per-run activation panels).
void i8_pack(const uint8_t* src, bool src_unsigned, int64_t outer_stride, int64_t k_stride, int64_t first,
             int64_t count, int64_t k, int width, bool to_unsigned, I8Panels& out, bool with_sums = true);

// Widens packed unsigned panels to uint16 values in place (value_bytes 2), for kernels with a
// rows_u16 tile: a row panel used against many column panels is widened once, not per tile.
void i8_widen_rows(I8Panels& panels);

// The zero point of an operand after packing moved it into the other domain.
inline int32_t i8_packed_zero(int32_t zero, bool src_unsigned, bool to_unsigned) {
  if (src_unsigned == to_unsigned) return zero;
  return to_unsigned ? zero + 128 : zero - 128;
}

// Which panels of a packed operand a call uses, and its zero points in the packed
// domain (row/column i has zero[i * zero_stride], i counted from the operand's start).
struct I8Operand {
  const I8Panels* panels = nullptr;
  int64_t first_panel = 0, panel_count = 0;
  const int32_t* zero = nullptr;
  int64_t zero_stride = 0;
};

// C = (R - zr)(S - zs) over the chosen row panels of r (width mr) and column panels of s
// (width nr); c points at the first chosen element, row stride ldc. One operand is
// unsigned, the other signed.
void i8_gemm_packed(const I8GemmKernel& kernel, const I8Operand& r, const I8Operand& s, int32_t* c, int64_t ldc);

// Requantization, the one definition every integer kernel uses (docs/quantization.md):
//   y[i] = saturate(round_half_to_even(float(acc[i] + bias) * multiplier[i * multiplier_stride]) + zero_point)
// where acc + bias wraps in int32 and the product is one float multiplication.
void requantize_u8(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier, int64_t multiplier_stride,
                   int32_t zero_point, uint8_t* out);
void requantize_s8(const int32_t* acc, int64_t n, int32_t bias, const float* multiplier, int64_t multiplier_stride,
                   int32_t zero_point, int8_t* out);

// QuantizeLinear's definition for float32 input, with the same rounding:
//   y[i] = saturate(round_half_to_even(x[i] / scale) + zero_point)   (one float division)
void quantize_u8(const float* x, int64_t n, float scale, int32_t zero_point, uint8_t* out);
void quantize_s8(const float* x, int64_t n, float scale, int32_t zero_point, int8_t* out);
// QdqAdd's step (QdqAddParams above), portable; tiers may have their own (qdq_add_u8).
void qdq_add_u8(const uint8_t* a, const uint8_t* b, int64_t n, const QdqAddParams& p, uint8_t* y);
// Whether tier.qdq_add_u8_by_inverse gives qdq_add_u8's bytes for these parameters: checked
// on all 65536 (a, b) pairs, so for every input. Session creation asks once per node.
bool qdq_add_by_inverse_is_exact(const I8GemmKernel& tier, const QdqAddParams& p);
// lo = min(+0, x[i]...), hi = max(+0, x[i]...), NaN elements skipped: DynamicQuantizeLinear's range.
void f32_range_with_zero(const float* x, int64_t n, float& lo, float& hi);

}  // namespace twinrt::kernels
