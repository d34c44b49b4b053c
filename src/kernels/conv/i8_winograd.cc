#include "kernels/conv/i8_winograd.h"

#include <cstring>

namespace twinrt::kernels {
namespace {

// 16-byte vectors (GCC and clang extensions): SSE2 natively, SIMD128 in WebAssembly.
// Integer lanes, so the vector code's values are the scalar code's.
using I16x8 = int16_t __attribute__((vector_size(16)));
using U8x8 = uint8_t __attribute__((vector_size(8)));
using U32x4 = uint32_t __attribute__((vector_size(16)));
using I32x4 = int32_t __attribute__((vector_size(16)));

// G' = 2 G along one axis of the filter: (2 g0, g0 + g1 + g2, g0 - g1 + g2, 2 g2).
void g_transform(int32_t g0, int32_t g1, int32_t g2, int32_t (&u)[4]) {
  u[0] = 2 * g0, u[1] = g0 + g1 + g2, u[2] = g0 - g1 + g2, u[3] = 2 * g2;
}

// B^T along one axis of the block, in place: (x0 - x2, x1 + x2, x2 - x1, x1 - x3).
template <class T>
void b_transform(T& x0, T& x1, T& x2, T& x3) {
  const T y0 = x0 - x2, y1 = x1 + x2, y2 = x2 - x1, y3 = x1 - x3;
  x0 = y0, x1 = y1, x2 = y2, x3 = y3;
}

// B^T d B of a 4x4 block (row-major).
template <class T>
void input_block(T (&d)[kI8WinogradPoints]) {
  for (int j = 0; j < 4; ++j) b_transform(d[j], d[4 + j], d[8 + j], d[12 + j]);
  for (int i = 0; i < 4; ++i) b_transform(d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]);
}

// A^T along one axis: (x0 + x1 + x2, x1 - x2 - x3).
template <class T>
void a_transform(T x0, T x1, T x2, T x3, T& y0, T& y1) {
  y0 = x0 + x1 + x2;
  y1 = x1 - x2 - x3;
}

// A^T M A of a 4x4 block of wrapping sums: the 2x2 outputs, row-major.
template <class T>
void output_block(const T (&m)[kI8WinogradPoints], T (&y)[4]) {
  T p[2][4];
  for (int q = 0; q < 4; ++q) a_transform(m[q], m[4 + q], m[8 + q], m[12 + q], p[0][q], p[1][q]);
  for (int a = 0; a < 2; ++a) a_transform(p[a][0], p[a][1], p[a][2], p[a][3], y[2 * a], y[2 * a + 1]);
}

}  // namespace

std::vector<I8Panels> i8_winograd_weights(const int8_t* w, int64_t m, int64_t c, int nr) {
  const int64_t groups = c / 4, panel_values = groups * nr * 4;
  std::vector<I8Panels> out(kI8WinogradPoints);
  for (I8Panels& p : out) {
    p.width = nr, p.outer = m, p.k = c, p.k_groups = groups, p.value_bytes = 2;
    p.bytes.assign(static_cast<size_t>((m + nr - 1) / nr * panel_values) * sizeof(int16_t), 0);
  }
  for (int64_t o = 0; o < m; ++o)
    for (int64_t ch = 0; ch < c; ++ch) {
      const int8_t* g = w + (o * c + ch) * 9;
      int32_t rows[3][4];  // G' applied down the filter's columns: rows[q][i] for column q
      for (int q = 0; q < 3; ++q) g_transform(g[q], g[3 + q], g[6 + q], rows[q]);
      const int64_t at = o / nr * panel_values + ch / 4 * nr * 4 + i8_pair_index(nr, static_cast<int>(o % nr), static_cast<int>(ch % 4));
      for (int i = 0; i < 4; ++i) {
        int32_t u[4];
        g_transform(rows[0][i], rows[1][i], rows[2][i], u);
        for (int j = 0; j < 4; ++j) {
          const int16_t value = static_cast<int16_t>(u[j]);  // |u| <= 1152
          std::memcpy(out[static_cast<size_t>(i * 4 + j)].bytes.data() + at * 2, &value, 2);
        }
      }
    }
  return out;
}

void i8_winograd_input(const uint8_t* const (&d)[kI8WinogradPoints], int64_t c, int16_t* v, int64_t v_stride) {
  int64_t ch = 0;
  for (; ch + 8 <= c; ch += 8) {
    I16x8 block[kI8WinogradPoints];
    for (int k = 0; k < kI8WinogradPoints; ++k) {
      U8x8 bytes;
      std::memcpy(&bytes, d[k] + ch, 8);
      block[k] = __builtin_convertvector(bytes, I16x8);
    }
    input_block(block);
    for (int k = 0; k < kI8WinogradPoints; ++k) std::memcpy(v + k * v_stride + ch, &block[k], sizeof(I16x8));
  }
  for (; ch < c; ++ch) {
    int32_t block[kI8WinogradPoints];
    for (int k = 0; k < kI8WinogradPoints; ++k) block[k] = d[k][ch];
    input_block(block);
    for (int k = 0; k < kI8WinogradPoints; ++k) v[k * v_stride + ch] = static_cast<int16_t>(block[k]);  // |V| <= 1020
  }
}

void i8_winograd_output(const int32_t* m, int64_t m_stride, int64_t n, const int32_t* add, int32_t* y,
                        int64_t y_stride) {
  int64_t j = 0;
  for (; j + 4 <= n; j += 4) {
    U32x4 sums[kI8WinogradPoints], out[4], bias;
    for (int k = 0; k < kI8WinogradPoints; ++k) std::memcpy(&sums[k], m + k * m_stride + j, sizeof(U32x4));
    std::memcpy(&bias, add + j, sizeof(U32x4));
    output_block(sums, out);
    for (int q = 0; q < 4; ++q) {
      const U32x4 value = reinterpret_cast<U32x4>(reinterpret_cast<I32x4>(out[q]) >> 2) + bias;
      std::memcpy(y + q * y_stride + j, &value, sizeof(U32x4));
    }
  }
  for (; j < n; ++j) {
    uint32_t sums[kI8WinogradPoints], out[4];
    for (int k = 0; k < kI8WinogradPoints; ++k) sums[k] = static_cast<uint32_t>(m[k * m_stride + j]);
    output_block(sums, out);
    for (int q = 0; q < 4; ++q)
      y[q * y_stride + j] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<int32_t>(out[q]) >> 2) + static_cast<uint32_t>(add[j]));
  }
}

}  // namespace twinrt::kernels
