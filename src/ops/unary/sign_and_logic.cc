// Abs, Neg and Sign (numeric types; integer negation wraps, since -INT_MIN is undefined
// in C++), Not (bool), and the float predicates IsNaN and IsInf.
#include <cmath>
#include <type_traits>

#include "ops/unary/unary_kernel.h"

namespace twinrt {
namespace {

struct AbsFn {
  template <class T>
  static T apply(T x) {
    if constexpr (is_float_like_v<T>) return through_double(x, [](double v) { return std::fabs(v); });
    else if constexpr (std::is_signed_v<T>) return x < 0 ? wrap_sub<T>(0, x) : x;
    else return x;
  }
};

struct NegFn {
  template <class T>
  static T apply(T x) {
    if constexpr (is_float_like_v<T>) return through_double(x, [](double v) { return -v; });
    else return wrap_sub<T>(0, x);
  }
};

// -1, 0 or 1 (NaN stays NaN; the sign of zero is kept).
struct SignFn {
  template <class T>
  static T apply(T x) {
    if constexpr (is_float_like_v<T>)
      return through_double(x, [](double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : v); });
    else return static_cast<T>(x > 0 ? 1 : (x < 0 ? -1 : 0));
  }
};

struct NotFn {
  static bool apply(bool x) { return !x; }
};

struct IsNaNFn {
  template <class T>
  static bool apply(T x) { return std::isnan(load(x)); }
};

struct IsInfOp {
  static constexpr unsigned kTypes = kFloats;
  static constexpr bool kBoolOutput = true;
  bool detect_positive = true;
  bool detect_negative = true;

  static Result<IsInfOp> parse(const KernelInit& init) {
    ASSIGN_OR_RETURN(int64_t pos, init.attr_int("detect_positive", 1));
    ASSIGN_OR_RETURN(int64_t neg, init.attr_int("detect_negative", 1));
    return IsInfOp{pos != 0, neg != 0};
  }
  template <class T>
  bool apply(T x) const {
    const auto v = load(x);
    return std::isinf(v) && (v > 0 ? detect_positive : detect_negative);
  }
};

using AbsOp = StatelessUnaryOp<kAllNumeric, AbsFn>;
using NegOp = StatelessUnaryOp<kFloats | kSignedInts, NegFn>;
using SignOp = StatelessUnaryOp<kAllNumeric, SignFn>;
using NotOp = StatelessUnaryOp<kBoolT, NotFn>;
using IsNaNOp = StatelessUnaryOp<kFloats, IsNaNFn, /*BoolOutput=*/true>;

}  // namespace

TWINRT_REGISTER_OP("Abs", 1, create_unary<AbsOp>);
TWINRT_REGISTER_OP("Neg", 1, create_unary<NegOp>);
TWINRT_REGISTER_OP("Sign", 9, create_unary<SignOp>);
TWINRT_REGISTER_OP("Not", 1, create_unary<NotOp>);
TWINRT_REGISTER_OP("IsNaN", 9, create_unary<IsNaNOp>);
TWINRT_REGISTER_OP("IsInf", 10, create_unary<IsInfOp>);

}  // namespace twinrt
