// Element arithmetic shared by the elementwise, reduction and softmax ops.
//
// - float16/bfloat16 compute in float and round once when stored (`load` / `store`).
// - Integer arithmetic wraps modulo 2^bits. Signed overflow is undefined behaviour in
//   C++, so sums, differences and products go through uint64_t.
// - Integer division by zero is defined here (ONNX leaves it to the platform, where it
//   traps): the quotient and the remainder are 0, as numpy returns.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/math/fast_float.h"
#include "kernels/math/half.h"
#include "kernels/math/math.h"
#include "ops/common/dispatch.h"
#include "twinrt/tensor.h"

namespace twinrt {

// not_implemented for a type outside the TypeSet `Set`, ok otherwise.
template <unsigned Set>
Status check_type_in(DataType t) {
  return dispatch<Set>(t, [](auto*) { return Status::ok(); });
}

template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

// float16/bfloat16 compute in float; every other type in itself.
template <class T>
using compute_t = std::conditional_t<is_half_v<T>, float, T>;

template <class T>
inline constexpr bool is_float_like_v = is_half_v<T> || std::is_floating_point_v<T>;

template <class T>
compute_t<T> load(T v) {
  if constexpr (is_half_v<T>) return math::to_float(v);
  else return v;
}

template <class T>
T store(compute_t<T> v) {
  if constexpr (std::is_same_v<T, Float16>) return math::to_float16(v);
  else if constexpr (std::is_same_v<T, BFloat16>) return math::to_bfloat16(v);
  else return v;
}

// The bounds that clamp nothing: infinities for floats, the type's limits for integers.
// With them a clamp is branch-free (a data-dependent branch per element mispredicts).
template <class C>
C no_lower_bound() {
  if constexpr (std::numeric_limits<C>::has_infinity) return -std::numeric_limits<C>::infinity();
  else return std::numeric_limits<C>::lowest();
}
template <class C>
C no_upper_bound() {
  if constexpr (std::numeric_limits<C>::has_infinity) return std::numeric_limits<C>::infinity();
  else return std::numeric_limits<C>::max();
}

template <class T>
T wrap_add(T a, T b) { return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }
template <class T>
T wrap_sub(T a, T b) { return static_cast<T>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }
template <class T>
T wrap_mul(T a, T b) { return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); }

// + - * that wrap for integers and are plain IEEE operations otherwise.
template <class C>
C arith_add(C a, C b) {
  if constexpr (std::is_integral_v<C>) return wrap_add(a, b);
  else return a + b;
}
template <class C>
C arith_sub(C a, C b) {
  if constexpr (std::is_integral_v<C>) return wrap_sub(a, b);
  else return a - b;
}
template <class C>
C arith_mul(C a, C b) {
  if constexpr (std::is_integral_v<C>) return wrap_mul(a, b);
  else return a * b;
}

// Truncating integer division. x/0 is 0; MIN/-1 wraps to MIN (both UB in C++).
template <class T>
T int_div(T a, T b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T>)
    if (b == -1) return wrap_sub<T>(0, a);
  return static_cast<T>(a / b);
}

// Remainder with the sign of the dividend (C %, numpy.fmod). x%0 is 0.
template <class T>
T int_rem(T a, T b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T>)
    if (b == -1) return 0;
  return static_cast<T>(a % b);
}

// Remainder with the sign of the divisor (Python %, ONNX Mod with fmod=0).
template <class T>
T int_mod(T a, T b) {
  T r = int_rem(a, b);
  if constexpr (std::is_signed_v<T>)
    if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
  return r;
}

// Float to integer: truncates toward zero, NaN gives 0 and out-of-range values saturate
// (a plain cast would be undefined behaviour).
template <class I, class F>
I saturating_cast(F v) {
  if (v != v) return 0;
  constexpr F lo = static_cast<F>(std::numeric_limits<I>::lowest());
  constexpr F hi = static_cast<F>(std::numeric_limits<I>::max());
  if (v <= lo) return std::numeric_limits<I>::lowest();
  if (v >= hi) return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}

// Accumulator for sums over many elements: double in reference mode (and for double
// data), float otherwise; 64-bit wrapping integers for integer data.
template <class T, bool kReference>
using accum_t = std::conditional_t<
    std::is_integral_v<T>, std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>,
    std::conditional_t<kReference || std::is_same_v<T, double>, double, float>>;

// The largest value of T (infinity when it has one), and the smallest.
template <class C>
constexpr C highest_value() {
  if constexpr (std::numeric_limits<C>::has_infinity) return std::numeric_limits<C>::infinity();
  else return std::numeric_limits<C>::max();
}
template <class C>
constexpr C lowest_value() {
  if constexpr (std::numeric_limits<C>::has_infinity) return -std::numeric_limits<C>::infinity();
  else return std::numeric_limits<C>::lowest();
}

template <class C>
bool is_nan(C v) {
  if constexpr (std::is_floating_point_v<C>) return v != v;
  else return false;
}

// max/min that return NaN when either operand is NaN (ONNX Max, Min, ReduceMax, ...).
template <class C>
C nan_max(C a, C b) { return is_nan(a) || a >= b ? a : b; }
template <class C>
C nan_min(C a, C b) { return is_nan(a) || a <= b ? a : b; }

// exp and log at the accumulator's precision (float: the double result rounded once).
template <class A>
A acc_exp(A v) {
  // Float accumulators are the fast modes' (reference mode accumulates in double).
  if constexpr (std::is_same_v<A, float>) return math::exp_f32(v);
  else return static_cast<A>(math::exp(static_cast<double>(v)));
}
template <class A>
A acc_log(A v) { return static_cast<A>(math::log(static_cast<double>(v))); }

// "v beats best" for ArgMax/Hardmax and for ArgMin. A NaN beats every number in both,
// so the first NaN is chosen, as numpy.argmax and numpy.argmin do.
template <class C>
bool beats_for_max(C v, C best) { return (is_nan(v) && !is_nan(best)) || v > best; }
template <class C>
bool beats_for_min(C v, C best) { return (is_nan(v) && !is_nan(best)) || v < best; }

}  // namespace twinrt
