// The AVX-512 float32 max pool (64-byte vectors; 8-bit pools take AVX2's: without AVX-512BW
// a 64-byte byte shuffle became element-by-element code, 4.5x slower than before on
// ResNet-50's uint8 pool). This folder is compiled twice, exact and fma; pooling does no
// arithmetic, so only the exact build defines it.
#if !TWINRT_KERNEL_FMA
#define TWINRT_POOL_NS avx512_maxpool
#define TWINRT_POOL_BYTE_SHUFFLE 1
#define TWINRT_POOL_BYTES 64
#define TWINRT_POOL_F32_FN f32_maxpool_2d__avx512
#include "kernels/portable/maxpool_2d.inc"
#endif
