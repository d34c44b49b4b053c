// The portable tier's row kernels: 4-float vectors (SSE2 natively, SIMD128 in the
// WebAssembly SIMD builds).
#define TWINRT_ROWS_NS scalar_rows
#define TWINRT_ROWS_VW 4
#define TWINRT_ROWS_FN f32_rows__scalar
#include "kernels/norm/f32_rows.inc"
