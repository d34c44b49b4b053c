// The portable tier's elementwise steps: 4-float vectors (SSE2 natively, SIMD128 in the
// WebAssembly SIMD builds).
#define TWINRT_STEP_NS scalar_steps
#define TWINRT_STEP_VW 4
#define TWINRT_STEP_FN f32_step__scalar
#define TWINRT_MAP_PANEL_FN f32_map_panel__scalar
#include "kernels/elementwise/f32_steps.inc"
