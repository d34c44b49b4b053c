// Activation functions: Relu, LeakyRelu, ThresholdedRelu, Elu, Selu, Celu, HardSigmoid,
// HardSwish and Shrink. Computed in double (attributes are float32 values, widened
// exactly) and rounded once; NaN inputs give NaN. Default mode computes HardSigmoid and
// HardSwish in float (activation_math.h).
#include <cmath>
#include <type_traits>

#include "kernels/math/math.h"
#include "ops/unary/activation_math.h"
#include "ops/unary/unary_kernel.h"

namespace twinrt {
namespace {

// A policy for float types whose per-element function is `f(x, params)` in double.
template <class Derived>
struct FloatActivation {
  static constexpr unsigned kTypes = kFloats;
  static constexpr bool kBoolOutput = false;
  template <class T>
  T apply(T x) const {
    return through_double(x, [this](double v) { return static_cast<const Derived*>(this)->f(v); });
  }
};

Result<double> float_attr(const KernelInit& init, const char* name, float def) {
  ASSIGN_OR_RETURN(float v, init.attr_float(name, def));
  return static_cast<double>(v);
}

// max(0, x); signed integers too (opset 14).
struct ReluFn {
  template <class T>
  static T apply(T x) {
    if constexpr (is_float_like_v<T>) return through_double(x, activation::relu);
    else return x < 0 ? T{0} : x;
  }
};

struct LeakyReluOp : FloatActivation<LeakyReluOp> {
  double alpha = 0.01;
  static Result<LeakyReluOp> parse(const KernelInit& init) {
    LeakyReluOp op;
    ASSIGN_OR_RETURN(op.alpha, float_attr(init, "alpha", 0.01f));
    return op;
  }
  double f(double x) const { return activation::leaky_relu(x, alpha); }
};

struct ThresholdedReluOp : FloatActivation<ThresholdedReluOp> {
  double alpha = 1.0;
  static Result<ThresholdedReluOp> parse(const KernelInit& init) {
    ThresholdedReluOp op;
    ASSIGN_OR_RETURN(op.alpha, float_attr(init, "alpha", 1.0f));
    return op;
  }
  double f(double x) const { return x > alpha ? x : (x != x ? x : 0.0); }
};

struct EluOp : FloatActivation<EluOp> {
  double alpha = 1.0;
  static Result<EluOp> parse(const KernelInit& init) {
    EluOp op;
    ASSIGN_OR_RETURN(op.alpha, float_attr(init, "alpha", 1.0f));
    return op;
  }
  double f(double x) const { return x < 0 ? alpha * math::expm1(x) : x; }
};

struct SeluOp : FloatActivation<SeluOp> {
  double alpha = 0, gamma = 0;
  static Result<SeluOp> parse(const KernelInit& init) {
    SeluOp op;
    ASSIGN_OR_RETURN(op.alpha, float_attr(init, "alpha", 1.67326319217681884765625f));
    ASSIGN_OR_RETURN(op.gamma, float_attr(init, "gamma", 1.05070102214813232421875f));
    return op;
  }
  double f(double x) const { return gamma * (x > 0 ? x : alpha * math::expm1(x)); }
};

struct CeluOp : FloatActivation<CeluOp> {
  double alpha = 1.0;
  static Result<CeluOp> parse(const KernelInit& init) {
    CeluOp op;
    ASSIGN_OR_RETURN(op.alpha, float_attr(init, "alpha", 1.0f));
    if (op.alpha == 0) return init.error("attribute alpha must not be 0 (Celu divides by it)");
    return op;
  }
  // max(0, x) + min(0, alpha (e^(x/alpha) - 1))
  double f(double x) const {
    if (x != x) return x;
    double negative_part = alpha * math::expm1(x / alpha);
    return (x > 0 ? x : 0.0) + (negative_part < 0 ? negative_part : 0.0);
  }
};

// The double formula of the activation `Derived::f`, or in default mode for float and half
// elements its float formula `Derived::in_float_f` (activation_math.h).
template <class Derived>
struct FloatActivationInFloat : FloatActivation<Derived> {
  bool in_float = false;
  template <class T>
  T apply(T x) const {
    if constexpr (std::is_same_v<compute_t<T>, float>)
      if (in_float) return store<T>(static_cast<const Derived*>(this)->in_float_f(load(x)));
    return FloatActivation<Derived>::apply(x);
  }
};

struct HardSigmoidOp : FloatActivationInFloat<HardSigmoidOp> {
  double alpha = 0.2, beta = 0.5;
  static Result<HardSigmoidOp> parse(const KernelInit& init) {
    HardSigmoidOp op;
    op.in_float = init.mode == Mode::kDefault;
    ASSIGN_OR_RETURN(op.alpha, float_attr(init, "alpha", 0.2f));
    ASSIGN_OR_RETURN(op.beta, float_attr(init, "beta", 0.5f));
    return op;
  }
  double f(double x) const { return activation::hard_sigmoid(x, alpha, beta); }
  float in_float_f(float x) const {
    return activation::hard_sigmoid_in_float(x, static_cast<float>(alpha), static_cast<float>(beta));
  }
};

struct HardSwishOp : FloatActivationInFloat<HardSwishOp> {
  static Result<HardSwishOp> parse(const KernelInit& init) {
    HardSwishOp op;
    op.in_float = init.mode == Mode::kDefault;
    return op;
  }
  double f(double x) const { return activation::hard_swish(x); }
  float in_float_f(float x) const { return activation::hard_swish_in_float(x); }
};

// x + bias below -lambd, x - bias above lambd, 0 between; for every numeric type.
struct ShrinkOp {
  static constexpr unsigned kTypes = kAllNumeric;
  static constexpr bool kBoolOutput = false;
  double lambd = 0.5, bias = 0.0;
  static Result<ShrinkOp> parse(const KernelInit& init) {
    ShrinkOp op;
    ASSIGN_OR_RETURN(op.lambd, float_attr(init, "lambd", 0.5f));
    ASSIGN_OR_RETURN(op.bias, float_attr(init, "bias", 0.0f));
    return op;
  }
  double f(double x) const {
    if (x < -lambd) return x + bias;
    if (x > lambd) return x - bias;
    return x != x ? x : 0.0;
  }
  template <class T>
  T apply(T x) const {
    if constexpr (is_float_like_v<T>) return through_double(x, [this](double v) { return f(v); });
    else return saturating_cast<T>(f(static_cast<double>(x)));
  }
};

using ReluOp = StatelessUnaryOp<kFloats | kSignedInts, ReluFn>;

}  // namespace

TWINRT_REGISTER_OP("Relu", 1, create_unary<ReluOp>);
TWINRT_REGISTER_OP("LeakyRelu", 1, create_unary<LeakyReluOp>);
TWINRT_REGISTER_OP("ThresholdedRelu", 10, create_unary<ThresholdedReluOp>);
TWINRT_REGISTER_OP("Elu", 1, create_unary<EluOp>);
TWINRT_REGISTER_OP("Selu", 1, create_unary<SeluOp>);
TWINRT_REGISTER_OP("Celu", 12, create_unary<CeluOp>);
TWINRT_REGISTER_OP("HardSigmoid", 1, create_unary<HardSigmoidOp>);
TWINRT_REGISTER_OP("HardSwish", 14, create_unary<HardSwishOp>);
TWINRT_REGISTER_OP("Shrink", 9, create_unary<ShrinkOp>);

}  // namespace twinrt
