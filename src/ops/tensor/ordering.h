// A strict weak order on element values for the sorting ops (TopK, Unique): numbers by
// value with NaN above everything (and NaNs equal to each other, as numpy sorts them),
// float16/bfloat16 through float, strings lexicographically.
#pragma once

#include <string>
#include <type_traits>

#include "kernels/math/half.h"
#include "twinrt/tensor.h"

namespace twinrt::tensor_ops {

template <class T>
bool value_less(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
    return value_less(math::to_float(a), math::to_float(b));
  } else if constexpr (std::is_floating_point_v<T>) {
    if (b != b) return a == a;  // anything but NaN is below NaN
    return a < b;
  } else {
    return a < b;
  }
}

template <class T>
bool value_equal(const T& a, const T& b) {
  return !value_less(a, b) && !value_less(b, a);
}

}  // namespace twinrt::tensor_ops
