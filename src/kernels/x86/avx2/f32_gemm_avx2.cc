// AVX2 GEMM tile, 6 x 16. Compiled twice (CMakeLists.txt): exact, and with
// -ffp-contract=fast and TWINRT_KERNEL_FMA for default mode.
#if TWINRT_KERNEL_FMA
#define TWINRT_TILE_NS avx2_fma
#define TWINRT_TILE_FN f32_gemm_6x16_fma__avx2
#else
#define TWINRT_TILE_NS avx2_exact
#define TWINRT_TILE_FN f32_gemm_6x16__avx2
#endif
#define TWINRT_TILE_VW 8
#define TWINRT_TILE_MR 6
#define TWINRT_TILE_NV 2
#define TWINRT_TILE_PREFETCH 8
#include "kernels/gemm/f32_gemm_tile.inc"
