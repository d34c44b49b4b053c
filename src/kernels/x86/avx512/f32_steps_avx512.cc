// AVX-512F elementwise steps. Exact in every mode (they must give the separate nodes' bits),
// so only the exact build of this folder defines them (CMakeLists.txt compiles it twice).
#if !TWINRT_KERNEL_FMA
#define TWINRT_STEP_NS avx512_steps
#define TWINRT_STEP_VW 16
#define TWINRT_STEP_FN f32_step__avx512
#define TWINRT_MAP_PANEL_FN f32_map_panel__avx512
#include "kernels/elementwise/f32_steps.inc"
#endif
