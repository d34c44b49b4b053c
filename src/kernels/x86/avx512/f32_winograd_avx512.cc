// AVX512 Winograd transforms: only in the fma copy of this folder (CMakeLists.txt), since
// they run in default mode only; the exact copy compiles to nothing.
#if TWINRT_KERNEL_FMA
#define TWINRT_WINO_NS avx512_winograd
#define TWINRT_WINO_LANES 16
#include "kernels/conv/f32_winograd_transforms.inc"

namespace twinrt::kernels {
extern const WinogradTransforms winograd_transforms__avx512;
const WinogradTransforms winograd_transforms__avx512 = avx512_winograd::transforms;
}  // namespace twinrt::kernels
#endif
