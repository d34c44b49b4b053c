// AVX512 Winograd transforms, only in the fma copy of this folder (CMakeLists.txt): they run
// in default mode only, so the exact copy compiles to nothing.
#if TWINRT_KERNEL_FMA
#define TWINRT_WINO_NS avx512_winograd
#define TWINRT_WINO_LANES 16
#define TWINRT_WINO_EXPORT winograd_transforms__avx512
#include "kernels/conv/f32_winograd_transforms.inc"
#endif
