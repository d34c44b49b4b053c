// AVX-512F GEMM tile, 12 x 32. Compiled twice (CMakeLists.txt): exact, and with
// -ffp-contract=fast and TWINRT_KERNEL_FMA for default mode.
#if TWINRT_KERNEL_FMA
#define TWINRT_TILE_NS avx512_fma
#define TWINRT_TILE_FN f32_gemm_12x32_fma__avx512
#else
#define TWINRT_TILE_NS avx512_exact
#define TWINRT_TILE_FN f32_gemm_12x32__avx512
#endif
#define TWINRT_TILE_VW 16
#define TWINRT_TILE_MR 12
#define TWINRT_TILE_NV 2
#define TWINRT_TILE_PREFETCH 8
#include "kernels/gemm/f32_gemm_tile.inc"
