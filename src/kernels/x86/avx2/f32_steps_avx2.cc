// AVX2 elementwise steps. Exact in every mode (they must give the separate nodes' bits),
// so only the exact build of this folder defines them (CMakeLists.txt compiles it twice).
#if !TWINRT_KERNEL_FMA
#define TWINRT_STEP_NS avx2_steps
#define TWINRT_STEP_VW 8
#define TWINRT_STEP_FN f32_step__avx2
#define TWINRT_MAP_PANEL_FN f32_map_panel__avx2
#include "kernels/elementwise/f32_steps.inc"
#endif
