// AVX-512F array functions of kernels/math/fast_float.h. Exact in every mode (the scalar
// functions' bits), so only the exact build of this folder defines them (CMakeLists.txt
// compiles it twice).
#if !TWINRT_KERNEL_FMA
#define TWINRT_LANES_NS avx512_lanes
#define TWINRT_LANES 8
#define TWINRT_EXP_FN exp_f32_n__avx512
#define TWINRT_ERF_FN erf_f32_n__avx512
#define TWINRT_SIGMOID_FN sigmoid_f32_n__avx512
#define TWINRT_ERF_IN_FLOAT_FN erf_in_float_n__avx512
#define TWINRT_EXP_IN_FLOAT_FN exp_in_float_n__avx512
#define TWINRT_SIGMOID_IN_FLOAT_FN sigmoid_in_float_n__avx512
#define TWINRT_SILU_FN silu_f32_n__avx512
#define TWINRT_SILU_IN_FLOAT_FN silu_in_float_n__avx512
#include "kernels/math/fast_float_lanes.inc"
#endif
