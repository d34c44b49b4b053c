// Winograd F(2x2, 3x3) for 8-bit convolutions, in integers and exact: the sums are the
// direct convolution's bits, so the bytes after requantization are too (on every tier, in
// WebAssembly, in every mode).
//
// A 2x2 block of outputs of channel m is A^T [sum over c of U[m][c] * V[c]] A with
// U = G g G^T (g the 3x3 filter) and V = B^T d B (d the 4x4 input block). G holds halves, so
// the weights are transformed with G' = 2 G instead: U' = 4 U, integers, |U'| <= 9 * 128 =
// 1152. B and A hold only 0 and +-1: |V| <= 4 * 255 = 1020 for uint8 d. Both fit int16, and
// a pair of products fits int32, so a 16-bit multiply-add (vpmaddwd, i32x4.dot_i16x8_s)
// computes the 16 products per input channel that replace the direct convolution's 36.
// The sums wrap in int32 and the output transform is additions, so the result is exact
// modulo 2^32; it is 4 times the direct sum S, and where |4 S| < 2^31 the int32 holds 4 S
// itself and an arithmetic shift by 2 gives S. |S| <= 9 * C * 255 * 128 for C input
// channels, which bounds C (kI8WinogradMaxChannels).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/gemm/i8_gemm.h"

namespace twinrt::kernels {

constexpr int kI8WinogradPoints = 16;  // the 4x4 transformed positions
// 4 * 9 * C * 255 * 128 < 2^31.
constexpr int64_t kI8WinogradMaxChannels = ((int64_t{1} << 31) - 1) / (4 * 9 * 255 * 128);

// U'[xi] of int8 weights [m, c, 3, 3] (c a multiple of 4), one int16 column panel set per
// position xi (outer m, k c, width nr, pair order: i8_pair_index), for an indirect_i16 tile.
std::vector<I8Panels> i8_winograd_weights(const int8_t* w, int64_t m, int64_t c, int nr);

// V of one 4x4 input block: pixel (i, j) of the block has its c uint8 channels at
// d[i * 4 + j] (a row of the zero point outside the image). Position xi's c int16 values go
// to v + xi * v_stride.
void i8_winograd_input(const uint8_t* const (&d)[kI8WinogradPoints], int64_t c, int16_t* v, int64_t v_stride);

// The 2x2 outputs of one block from its 16 products m + xi * m_stride (n channels each):
// y[(a * 2 + b) * y_stride + j] = (A^T M A)[a][b] / 4 + add[j], wrapping in int32.
void i8_winograd_output(const int32_t* m, int64_t m_stride, int64_t n, const int32_t* add, int32_t* y,
                        int64_t y_stride);

}  // namespace twinrt::kernels
