// AVX2 Winograd transforms: only in the fma copy of this folder (CMakeLists.txt), since
// they run in default mode only; the exact copy compiles to nothing.
#if TWINRT_KERNEL_FMA
#define TWINRT_WINO_NS avx2_winograd
#define TWINRT_WINO_LANES 8
#include "kernels/conv/f32_winograd_transforms.inc"

namespace twinrt::kernels {
extern const WinogradTransforms winograd_transforms__avx2;
const WinogradTransforms winograd_transforms__avx2 = avx2_winograd::transforms;
}  // namespace twinrt::kernels
#endif
