// Element conversions between the numeric types and bool, as Cast defines them, with no
// undefined behaviour:
// - float -> float rounds to nearest even (double -> float16/bfloat16 rounds once, via a
//   round-to-odd float: the intermediate keeps enough bits that no double rounding occurs);
// - float -> integer truncates toward zero, saturates out of range, and maps NaN to 0;
// - integer -> integer wraps modulo 2^bits (as C++20 and numpy do);
// - anything -> bool is "!= 0" (NaN is true); bool -> anything is 0 or 1.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/math/half.h"
#include "ops/binary/numeric.h"

namespace twinrt::cast {

// d rounded to float toward zero, with the last bit set when inexact ("round to odd").
inline float to_float_round_to_odd(double d) {
  const float f = static_cast<float>(d);
  if (f != f || static_cast<double>(f) == d) return f;
  uint32_t u = math::float_bits(f);
  if (std::fabs(static_cast<double>(f)) > std::fabs(d)) --u;  // one step toward zero
  return math::bits_float(u | 1u);
}

// A float-like value as double (exact).
template <class T>
double float_to_double(T v) {
  return static_cast<double>(load(v));
}

// A double rounded once to the float-like type To.
template <class To>
To double_to_float(double d) {
  if constexpr (std::is_same_v<To, double>) return d;
  else if constexpr (std::is_same_v<To, float>) return static_cast<float>(d);
  else if constexpr (std::is_same_v<To, Float16>) return Float16{math::float_to_half(to_float_round_to_odd(d))};
  else return BFloat16{math::float_to_bfloat16(to_float_round_to_odd(d))};
}

// Converts one element between numeric types and bool.
template <class To, class From>
To convert_element(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    return load(v) != 0;
  } else if constexpr (std::is_same_v<From, bool>) {
    return convert_element<To>(static_cast<uint8_t>(v ? 1 : 0));
  } else if constexpr (is_float_like_v<From>) {
    const double d = float_to_double(v);
    if constexpr (is_float_like_v<To>) return double_to_float<To>(d);
    else return saturating_cast<To>(d);
  } else if constexpr (is_float_like_v<To>) {  // integer -> float
    if constexpr (std::is_same_v<To, float> || std::is_same_v<To, double>) return static_cast<To>(v);
    else return double_to_float<To>(static_cast<double>(v));
  } else {
    return static_cast<To>(v);  // integer -> integer: modular (defined since C++20)
  }
}

}  // namespace twinrt::cast
