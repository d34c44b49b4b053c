// AVX2 Winograd transforms, only in the fma copy of this folder (CMakeLists.txt): they run
// in default mode only, so the exact copy compiles to nothing.
#if TWINRT_KERNEL_FMA
#define TWINRT_WINO_NS avx2_winograd
#define TWINRT_WINO_LANES 8
#define TWINRT_WINO_EXPORT winograd_transforms__avx2
#include "kernels/conv/f32_winograd_transforms.inc"
#endif
