// The portable tier's depthwise plane kernel: 4-float vectors (SSE2 natively, SIMD128 in
// the WebAssembly SIMD builds). Always exact: no FMA on these targets.
#define TWINRT_DW_NS scalar_dwconv
#define TWINRT_DW_VW 4
#define TWINRT_DW_FN f32_dwconv__scalar
#include "kernels/conv/f32_dwconv_plane.inc"
