#include "io/tensor_stats.h"

#include <cmath>
#include <cstdio>
#include <type_traits>

#include "kernels/math/half.h"
#include "ops/common/dispatch.h"

namespace twinrt::io {
namespace {

template <class T>
double as_double(T v) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) return math::to_float(v);
  else return static_cast<double>(v);
}

std::string number(double v) {
  if (std::isnan(v)) return "nan";  // the mean of +inf and -inf; printf may say "-nan"
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

}  // namespace

Result<TensorStats> tensor_stats(const Tensor& t) {
  TensorStats s;
  s.count = t.numel();
  double sum = 0;
  int64_t counted = 0;
  Status st = dispatch<kAllNumeric | kBoolT>(t.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    const T* p = t.data<T>();
    for (int64_t i = 0; i < t.numel(); ++i) {
      const double v = as_double(p[i]);
      if (std::isnan(v)) {
        ++s.nan_count;
        continue;
      }
      if (counted == 0 || v < s.min) s.min = v;
      if (counted == 0 || v > s.max) s.max = v;
      sum += v;
      ++counted;
    }
    return Status::ok();
  });
  if (!st) return not_implemented(std::string("no summary statistics for ") + dtype_name(t.dtype()));
  s.has_values = counted > 0;
  if (s.has_values) s.mean = sum / static_cast<double>(counted);
  return s;
}

std::string format_stats(const TensorStats& s) {
  if (s.count == 0) return "empty";
  if (!s.has_values) return "all NaN (" + std::to_string(s.nan_count) + ")";
  std::string out = "min=" + number(s.min) + " max=" + number(s.max) + " mean=" + number(s.mean);
  if (s.nan_count > 0) out += " nan=" + std::to_string(s.nan_count);
  return out;
}

}  // namespace twinrt::io
