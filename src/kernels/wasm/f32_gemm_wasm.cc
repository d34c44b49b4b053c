// The float32 GEMM tile of the WebAssembly builds: the same tile template as every other
// tier (kernels/gemm/f32_gemm_tile.inc: per-lane k order, separate multiply and add, so the
// same bits as native `exact`), with a shape chosen for the engines that compile wasm.
//
// V8 (Node, Chromium) allocates registers for the whole function with a linear scan and
// keeps one xmm register for itself. The portable tier's 6x8 tile needs 12 accumulators
// plus 2 B vectors and a splat, all 15 that are left; in a microbenchmark under Node 20 it
// and every shape with 13 or more live vectors ran slow (V8's machine code was not
// inspected). 4x8 keeps 8 accumulators (still enough independent adds to hide the add
// latency) and ran 1.5x faster on the shapes of ResNet-50 and BERT (about 31-35 against
// 21 GFLOP/s, one thread).
// Without SIMD128 the vectors become scalar floats: 4x4 (16 accumulators) beat 6x8 by
// 10-50% there. Compiled only by emscripten (CMakeLists.txt).
#if defined(__wasm_simd128__)
#define TWINRT_TILE_NS wasmsimd_tile
#define TWINRT_TILE_VW 4
#define TWINRT_TILE_MR 4
#define TWINRT_TILE_NV 2
#define TWINRT_TILE_FN f32_gemm_4x8__wasmsimd
#include "kernels/gemm/f32_gemm_tile.inc"
#elif defined(__wasm__)
#define TWINRT_TILE_NS wasm_tile
#define TWINRT_TILE_VW 4
#define TWINRT_TILE_MR 4
#define TWINRT_TILE_NV 1
#define TWINRT_TILE_FN f32_gemm_4x4__wasm
#include "kernels/gemm/f32_gemm_tile.inc"
#endif
