// The portable tier's GEMM tile: 4-float vectors, which the compiler lowers to the
// target's baseline (SSE2 on x86-64, SIMD128 in the WebAssembly SIMD builds, scalar
// code in the baseline WebAssembly build). Always exact: no FMA on these targets.
#define TWINRT_TILE_NS scalar_tile
#define TWINRT_TILE_VW 4
#define TWINRT_TILE_MR 6
#define TWINRT_TILE_NV 2
#define TWINRT_TILE_FN f32_gemm_6x8__scalar
#include "kernels/gemm/f32_gemm_tile.inc"
