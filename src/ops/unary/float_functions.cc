// Unary ops that apply one elementary function to float tensors: computed in double
// through twinrt::math and rounded once (reference mode; the fast modes use
// kernels/math/fast_float.h where an op names a float version).
#include <cmath>

#include "kernels/math/fast_float.h"
#include "kernels/math/math.h"
#include "ops/unary/activation_math.h"
#include "ops/unary/unary_kernel.h"

namespace twinrt {
namespace {

double reciprocal(double x) { return 1.0 / x; }
double ceil_fn(double x) { return std::ceil(x); }
double floor_fn(double x) { return std::floor(x); }

// log(1 + e^x), without overflow for large x.
double softplus(double x) {
  return x > 0 ? x + math::log1p(math::exp(-x)) : math::log1p(math::exp(x));
}

// x / (1 + |x|), with its limits +-1 at the infinities (the formula gives inf/inf).
double softsign(double x) {
  if (std::fabs(x) == INFINITY) return x > 0 ? 1.0 : -1.0;
  return x / (1.0 + std::fabs(x));
}

using ExpOp = FastFloatFunctionOp<math::exp, math::exp_f32_n_kernel, math::exp_in_float_n_kernel>;
using ErfOp = FastFloatFunctionOp<math::erf, math::erf_f32_n_kernel, math::erf_in_float_n_kernel>;
using SigmoidOp = FastFloatFunctionOp<activation::sigmoid, math::sigmoid_f32_n_kernel, math::sigmoid_in_float_n_kernel>;

}  // namespace

TWINRT_REGISTER_OP("Exp", 1, create_unary<ExpOp>);
TWINRT_REGISTER_OP("Log", 1, create_unary<FloatFunctionOp<math::log>>);
TWINRT_REGISTER_OP("Sqrt", 1, create_unary<FloatFunctionOp<math::sqrt>>);
TWINRT_REGISTER_OP("Reciprocal", 1, create_unary<FloatFunctionOp<reciprocal>>);
TWINRT_REGISTER_OP("Ceil", 1, create_unary<FloatFunctionOp<ceil_fn>>);
TWINRT_REGISTER_OP("Floor", 1, create_unary<FloatFunctionOp<floor_fn>>);
TWINRT_REGISTER_OP("Round", 11, create_unary<FloatFunctionOp<math::round_half_even>>);
TWINRT_REGISTER_OP("Sin", 7, create_unary<FloatFunctionOp<math::sin>>);
TWINRT_REGISTER_OP("Cos", 7, create_unary<FloatFunctionOp<math::cos>>);
TWINRT_REGISTER_OP("Tan", 7, create_unary<FloatFunctionOp<math::tan>>);
TWINRT_REGISTER_OP("Asin", 7, create_unary<FloatFunctionOp<math::asin>>);
TWINRT_REGISTER_OP("Acos", 7, create_unary<FloatFunctionOp<math::acos>>);
TWINRT_REGISTER_OP("Atan", 7, create_unary<FloatFunctionOp<math::atan>>);
TWINRT_REGISTER_OP("Sinh", 9, create_unary<FloatFunctionOp<math::sinh>>);
TWINRT_REGISTER_OP("Cosh", 9, create_unary<FloatFunctionOp<math::cosh>>);
TWINRT_REGISTER_OP("Tanh", 1, create_unary<FloatFunctionOp<math::tanh>>);
TWINRT_REGISTER_OP("Asinh", 9, create_unary<FloatFunctionOp<math::asinh>>);
TWINRT_REGISTER_OP("Acosh", 9, create_unary<FloatFunctionOp<math::acosh>>);
TWINRT_REGISTER_OP("Atanh", 9, create_unary<FloatFunctionOp<math::atanh>>);
TWINRT_REGISTER_OP("Erf", 9, create_unary<ErfOp>);
TWINRT_REGISTER_OP("Sigmoid", 1, create_unary<SigmoidOp>);
TWINRT_REGISTER_OP("Softplus", 1, create_unary<FloatFunctionOp<softplus>>);
TWINRT_REGISTER_OP("Softsign", 1, create_unary<FloatFunctionOp<softsign>>);

}  // namespace twinrt
