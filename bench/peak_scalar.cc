#define PEAK_VW 4
#define PEAK_FN peak_scalar
#include "peak_loop.inc"
