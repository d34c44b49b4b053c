// AVX-512F depthwise plane kernel. Compiled twice (CMakeLists.txt): exact, and with
// -ffp-contract=fast and TWINRT_KERNEL_FMA for default mode.
#if TWINRT_KERNEL_FMA
#define TWINRT_DW_NS avx512_fma_dwconv
#define TWINRT_DW_FN f32_dwconv_fma__avx512
#else
#define TWINRT_DW_NS avx512_exact_dwconv
#define TWINRT_DW_FN f32_dwconv__avx512
#endif
#define TWINRT_DW_VW 16
#include "kernels/conv/f32_dwconv_plane.inc"
