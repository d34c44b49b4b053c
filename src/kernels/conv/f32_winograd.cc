#include "kernels/conv/f32_winograd.h"

#include <algorithm>
#include <vector>

namespace twinrt::kernels {
namespace {

// Eight blocks at a time. The vector type is lowered to whatever the target has (two SSE
// registers on the x86-64 baseline, two SIMD128 ones in WebAssembly).
constexpr int64_t kLanes = 4;
typedef float Vec __attribute__((vector_size(kLanes * 4)));
typedef float VecU __attribute__((vector_size(kLanes * 4), aligned(4), may_alias));
inline Vec load(const float* p) { return *reinterpret_cast<const VecU*>(p); }
inline void store(float* p, Vec v) { *reinterpret_cast<VecU*>(p) = v; }

int64_t round_up(int64_t n) { return (n + kLanes - 1) / kLanes * kLanes; }

// (a, b, c) -> G (a, b, c): the filter's 3 taps along one axis become 4.
inline void filter_transform(float a, float b, float c, float* out) {
  out[0] = a;
  out[1] = 0.5f * (a + b + c);
  out[2] = 0.5f * (a - b + c);
  out[3] = c;
}

// One row of blocks of one channel: `even[i]` and `odd[i]` hold input row i's even and odd
// columns of the padded window (so block bx reads lanes bx and bx + 1 of each: whole
// vectors, no stride-2 gathers); `out[xi]` gets the 16 transformed rows.
void input_row(const float* const (&even)[4], const float* const (&odd)[4], int64_t count, float* const (&out)[16]) {
  for (int64_t bx = 0; bx < count; bx += kLanes) {
    Vec t[4][4];  // B^T d: column j of the block is input column 2 bx + j
    Vec d[4][4];
    for (int i = 0; i < 4; ++i) {
      d[i][0] = load(even[i] + bx);
      d[i][1] = load(odd[i] + bx);
      d[i][2] = load(even[i] + bx + 1);
      d[i][3] = load(odd[i] + bx + 1);
    }
    for (int j = 0; j < 4; ++j) {
      t[0][j] = d[0][j] - d[2][j];
      t[1][j] = d[1][j] + d[2][j];
      t[2][j] = d[2][j] - d[1][j];
      t[3][j] = d[1][j] - d[3][j];
    }
    for (int i = 0; i < 4; ++i) {  // (B^T d) B
      store(out[i * 4 + 0] + bx, t[i][0] - t[i][2]);
      store(out[i * 4 + 1] + bx, t[i][1] + t[i][2]);
      store(out[i * 4 + 2] + bx, t[i][2] - t[i][1]);
      store(out[i * 4 + 3] + bx, t[i][1] - t[i][3]);
    }
  }
}

// A^T M A for a row of blocks: m[xi] are the 16 product rows; y[i][j] gets output (i, j) of
// each block.
void output_row(const float* const (&m)[16], int64_t count, float* const (&y)[2][2]) {
  for (int64_t bx = 0; bx < count; bx += kLanes) {
    Vec t[2][4];  // A^T M
    for (int j = 0; j < 4; ++j) {
      const Vec m0 = load(m[j] + bx), m1 = load(m[4 + j] + bx), m2 = load(m[8 + j] + bx), m3 = load(m[12 + j] + bx);
      t[0][j] = m0 + m1 + m2;
      t[1][j] = m1 - m2 - m3;
    }
    for (int i = 0; i < 2; ++i) {  // (A^T M) A
      store(y[i][0] + bx, t[i][0] + t[i][1] + t[i][2]);
      store(y[i][1] + bx, t[i][1] - t[i][2] - t[i][3]);
    }
  }
}

}  // namespace

void f32_winograd_weights(const float* weights, int64_t out_channels, int64_t in_channels, float* u) {
  const int64_t matrix = out_channels * in_channels;
  for (int64_t oc = 0; oc < matrix; ++oc) {
    const float* g = weights + oc * 9;
    float rows[4][3];  // G g
    for (int j = 0; j < 3; ++j) {
      float column[4];
      filter_transform(g[j], g[3 + j], g[6 + j], column);
      for (int i = 0; i < 4; ++i) rows[i][j] = column[i];
    }
    for (int i = 0; i < 4; ++i) {
      float transformed[4];  // (G g) G^T, row i
      filter_transform(rows[i][0], rows[i][1], rows[i][2], transformed);
      for (int j = 0; j < 4; ++j) u[(i * 4 + j) * matrix + oc] = transformed[j];
    }
  }
}

void f32_winograd_input(const WinogradGeometry& g, const float* image, int64_t in_channels, int64_t c0, int64_t c1,
                        int nr, float* v, int64_t v_stride) {
  const int64_t bw = g.blocks_w(), panel = in_channels * nr;
  // Per input row: its even and odd columns of the padded window (zeros for the padding and
  // past the image), each bw + 1 long and room for the last vector; then 16 rows of results.
  const int64_t half = round_up(bw + 1) + kLanes, lane_bw = round_up(bw);
  thread_local std::vector<float> buffer;
  buffer.assign(static_cast<size_t>(8 * half + 16 * lane_bw), 0.0f);
  const float* even[4];
  const float* odd[4];
  for (int i = 0; i < 4; ++i) {
    even[i] = buffer.data() + (2 * i) * half;
    odd[i] = buffer.data() + (2 * i + 1) * half;
  }
  float* results[16];
  for (int xi = 0; xi < 16; ++xi) results[xi] = buffer.data() + 8 * half + xi * lane_bw;
  // Window columns [x_first, x_end) come from the image, the rest stay zero.
  const int64_t x_first = g.pad_left, x_end = std::min<int64_t>(2 * bw + 2, g.in_w + g.pad_left);
  for (int64_t c = c0; c < c1; ++c) {
    const float* plane = image + c * g.in_h * g.in_w;
    for (int64_t row = 0; row < g.band_rows(); ++row) {
      for (int i = 0; i < 4; ++i) {
        const int64_t iy = 2 * (g.band_first + row) - g.pad_top + i;
        const bool inside = iy >= 0 && iy < g.in_h;
        for (int parity = 0; parity < 2; ++parity) {
          // Window columns 2 k + parity in [x_first, x_end); the stride a constant, so the
          // copy is vectorized.
          float* dst = buffer.data() + (2 * i + parity) * half;
          const int64_t k0 = (x_first - parity + 1) / 2, k1 = (x_end - parity + 1) / 2;
          if (!inside) {
            std::fill(dst + k0, dst + std::max(k0, k1), 0.0f);
            continue;
          }
          const float* src = plane + iy * g.in_w - g.pad_left + parity;  // window column 2 k + parity
          for (int64_t k = k0; k < k1; ++k) dst[k] = src[2 * k];
        }
      }
      input_row(even, odd, bw, results);
      // Into the panels, a run of columns per panel the row of blocks crosses.
      for (int64_t b = row * bw, end = b + bw; b < end;) {
        const int64_t run = std::min<int64_t>(end - b, nr - b % nr);
        float* dst = v + b / nr * panel + c * nr + b % nr;
        const int64_t from = b - row * bw;
        for (int xi = 0; xi < 16; ++xi)
          for (int64_t j = 0; j < run; ++j) dst[xi * v_stride + j] = results[xi][from + j];
        b += run;
      }
    }
  }
}

void f32_winograd_output(const WinogradGeometry& g, const float* m, int64_t m_stride, int64_t o,
                         const WinogradOutputStep& step, float* plane) {
  const int64_t bw = g.blocks_w(), blocks = g.blocks(), lane_bw = round_up(bw);
  // The four outputs of each block of a row of blocks, then one output row in order.
  thread_local std::vector<float> buffer;
  buffer.resize(static_cast<size_t>(6 * lane_bw));
  float* y[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) y[i][j] = buffer.data() + (2 * i + j) * lane_bw;
  float* line = buffer.data() + 4 * lane_bw;
  for (int64_t band_row = 0; band_row < g.band_rows(); ++band_row) {
    const int64_t by = g.band_first + band_row;
    const float* rows[16];
    for (int xi = 0; xi < 16; ++xi) rows[xi] = m + xi * m_stride + o * blocks + band_row * bw;
    output_row(rows, bw, y);
    for (int i = 0; i < 2; ++i) {
      const int64_t row = 2 * by + i;
      if (row >= g.out_h) break;
      for (int64_t bx = 0; bx < bw; ++bx) {
        line[2 * bx] = y[i][0][bx];
        line[2 * bx + 1] = y[i][1][bx];
      }
      // One simple loop per step, each vectorized (a step's test inside one loop kept it
      // scalar); every element still gets the steps in the same order.
      const int64_t n = g.out_w;
      if (step.bias)
        for (int64_t x = 0; x < n; ++x) line[x] = line[x] + *step.bias;
      if (const float* residual = step.residual ? step.residual + row * n : nullptr)
        for (int64_t x = 0; x < n; ++x) line[x] = line[x] + residual[x];
      if (step.clamp)
        for (int64_t x = 0; x < n; ++x) {
          const float low = line[x] < step.min ? step.min : line[x];
          line[x] = low > step.max ? step.max : low;
        }
      std::copy(line, line + n, plane + row * n);
    }
  }
}

}  // namespace twinrt::kernels
