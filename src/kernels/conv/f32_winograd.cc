#include "kernels/conv/f32_winograd.h"

#include <algorithm>

#if defined(__x86_64__) || defined(_M_X64)
#define TWINRT_X86 1
#endif

// The portable tier (and WebAssembly: SIMD128 where the build has it).
#define TWINRT_WINO_NS portable_winograd
#define TWINRT_WINO_LANES 4
#include "kernels/conv/f32_winograd_transforms.inc"

namespace twinrt::kernels {
namespace {

// (a, b, c) -> G (a, b, c): the filter's 3 taps along one axis become tile + 2.
void filter_transform(int tile, float a, float b, float c, float* out) {
  if (tile == 2) {
    out[0] = a;
    out[1] = 0.5f * (a + b + c);
    out[2] = 0.5f * (a - b + c);
    out[3] = c;
    return;
  }
  // In double, each rounded once: thirds and sixths are not exact in float.
  const double x = a, y = b, z = c;
  out[0] = static_cast<float>(x / 4);
  out[1] = static_cast<float>(-(x + y + z) / 6);
  out[2] = static_cast<float>(-(x - y + z) / 6);
  out[3] = static_cast<float>(x / 24 + y / 12 + z / 6);
  out[4] = static_cast<float>(x / 24 - y / 12 + z / 6);
  out[5] = c;
}

}  // namespace

WinogradScratch winograd_scratch(const WinogradGeometry& g, int64_t lanes) {
  const int64_t alpha = g.tile + 2, points = g.points();
  const auto whole = [lanes](int64_t n) { return (n + lanes - 1) / lanes * lanes; };
  WinogradScratch s;
  s.lanes = whole(g.blocks());
  s.input_rows = g.tile * g.band_rows() + 2;
  s.padded_width = g.tile * whole(g.blocks_w()) + alpha;
  s.strip = s.lanes + lanes;
  s.result_row = s.lanes + 2 * kMaxPanelWidth;
  const int64_t input = s.input_rows * s.padded_width + points * (2 * s.strip + s.result_row);
  const int64_t output = g.tile * g.tile * (s.lanes + lanes);
  s.floats = std::max(input, output);
  return s;
}

void f32_winograd_weights(const float* weights, int64_t out_channels, int64_t in_channels, int tile, float* u) {
  const int alpha = tile + 2;
  const int64_t matrix = out_channels * in_channels;
  for (int64_t oc = 0; oc < matrix; ++oc) {
    const float* g = weights + oc * 9;
    float rows[6][3];  // G g
    for (int j = 0; j < 3; ++j) {
      float column[6];
      filter_transform(tile, g[j], g[3 + j], g[6 + j], column);
      for (int i = 0; i < alpha; ++i) rows[i][j] = column[i];
    }
    for (int i = 0; i < alpha; ++i) {
      float transformed[6];  // (G g) G^T, row i
      filter_transform(tile, rows[i][0], rows[i][1], rows[i][2], transformed);
      for (int j = 0; j < alpha; ++j) u[(i * alpha + j) * matrix + oc] = transformed[j];
    }
  }
}

#ifdef TWINRT_X86
// Defined in the ISA folders (their fma copies), each compiled with its own flags.
extern const WinogradTransforms winograd_transforms__avx2, winograd_transforms__avx512;
#endif

const WinogradTransforms& f32_winograd_transforms(Isa isa) {
#ifdef TWINRT_X86
  if (isa == Isa::kAvx512) return winograd_transforms__avx512;
  if (isa == Isa::kAvx2) return winograd_transforms__avx2;
#else
  (void)isa;
#endif
  return portable_winograd::transforms;
}

}  // namespace twinrt::kernels
