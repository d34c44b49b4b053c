// The AVX2 max pool (32-byte vectors). This folder is compiled twice, exact and fma;
// pooling does no arithmetic, so only the exact build defines it.
#if !TWINRT_KERNEL_FMA
#define TWINRT_POOL_NS avx2_maxpool
#define TWINRT_POOL_BYTE_SHUFFLE 1
#define TWINRT_POOL_BYTES 32
#define TWINRT_POOL_F32_FN f32_maxpool_2d__avx2
#define TWINRT_POOL_U8_FN u8_maxpool_2d__avx2
#define TWINRT_POOL_I8_FN i8_maxpool_2d__avx2
#include "kernels/portable/maxpool_2d.inc"
#endif
