// AVX2 row kernels. Exact in every mode (f32_rows.h: every tier's bits), so only the exact
// build of this folder defines them (CMakeLists.txt compiles it twice).
#if !TWINRT_KERNEL_FMA
#define TWINRT_ROWS_NS avx2_rows
#define TWINRT_ROWS_VW 8
#define TWINRT_ROWS_FN f32_rows__avx2
#include "kernels/norm/f32_rows.inc"
#endif
