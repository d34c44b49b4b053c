// twinrt's own elementary functions. Kernels call these, never libm: glibc and
// emscripten's libm disagree in the last bits, and "same numbers everywhere" needs one
// implementation compiled with -ffp-contract=off. Each is computed in double with a
// fixed sequence of IEEE operations, so results are identical on every target.
//
// sqrt, floor, ceil, trunc, fabs, fmod and nearbyint are exact IEEE operations, so
// their std:: versions are allowed; everything else goes through this header.
#pragma once

namespace twinrt::math {

double exp(double x);
double expm1(double x);
double log(double x);
double log1p(double x);
double pow(double x, double y);
double sin(double x);
double cos(double x);
double tan(double x);
double asin(double x);
double acos(double x);
double atan(double x);
double atan2(double y, double x);
double sinh(double x);
double cosh(double x);
double tanh(double x);
double asinh(double x);
double acosh(double x);
double atanh(double x);
double erf(double x);
double sqrt(double x);            // IEEE sqrt (exact)
double round_half_even(double x);  // ONNX Round

// Float versions: the double result rounded once to float.
inline float expf(float x) { return static_cast<float>(exp(x)); }
inline float logf(float x) { return static_cast<float>(log(x)); }
inline float tanhf(float x) { return static_cast<float>(tanh(x)); }
inline float erff(float x) { return static_cast<float>(erf(x)); }
inline float powf(float x, float y) { return static_cast<float>(pow(x, y)); }
inline float sigmoidf(float x) { return static_cast<float>(1.0 / (1.0 + exp(-static_cast<double>(x)))); }

}  // namespace twinrt::math
