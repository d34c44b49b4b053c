// AVX-512 row kernels. Exact in every mode (f32_rows.h: every tier's bits), so only the
// exact build of this folder defines them (CMakeLists.txt compiles it twice).
#if !TWINRT_KERNEL_FMA
#define TWINRT_ROWS_NS avx512_rows
#define TWINRT_ROWS_VW 16
#define TWINRT_ROWS_FN f32_rows__avx512
#include "kernels/norm/f32_rows.inc"
#endif
