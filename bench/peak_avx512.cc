#define PEAK_VW 16
#define PEAK_FN peak_avx512
#include "peak_loop.inc"
