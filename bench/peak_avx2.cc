#define PEAK_VW 8
#define PEAK_FN peak_avx2
#include "peak_loop.inc"
