#include "kernels/conv/f32_winograd.h"

#if defined(__x86_64__) || defined(_M_X64)
#define TWINRT_X86 1
#endif

// The portable tier (and WebAssembly: SIMD128 where the build has it).
#define TWINRT_WINO_NS portable_winograd
#define TWINRT_WINO_LANES 4
#include "kernels/conv/f32_winograd_transforms.inc"

namespace twinrt::kernels {
namespace {

// (a, b, c) -> G (a, b, c): the filter's 3 taps along one axis become 4.
inline void filter_transform(float a, float b, float c, float* out) {
  out[0] = a;
  out[1] = 0.5f * (a + b + c);
  out[2] = 0.5f * (a - b + c);
  out[3] = c;
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
