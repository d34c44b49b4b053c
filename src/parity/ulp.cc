// ULP distances and per-dtype constants for the error metrics.
#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/math/half.h"
#include "parity/metrics_parts.h"

namespace twinrt::parity {
namespace {

// Sign-magnitude bit pattern -> distance on the line of representable values.
double ordered_distance(uint64_t a_bits, uint64_t b_bits, int sign_bit) {
  const uint64_t sign = uint64_t{1} << sign_bit;
  const uint64_t a_mag = a_bits & (sign - 1), b_mag = b_bits & (sign - 1);
  const bool a_neg = a_bits & sign, b_neg = b_bits & sign;
  if (a_neg != b_neg) return static_cast<double>(a_mag) + static_cast<double>(b_mag);
  return static_cast<double>(a_mag > b_mag ? a_mag - b_mag : b_mag - a_mag);
}

uint64_t bits_of(double v, DataType dtype) {
  switch (dtype) {
    case DataType::kDouble: { uint64_t u; std::memcpy(&u, &v, 8); return u; }
    case DataType::kFloat16: return math::float_to_half(static_cast<float>(v));
    case DataType::kBFloat16: return math::float_to_bfloat16(static_cast<float>(v));
    default: return math::float_bits(static_cast<float>(v));
  }
}

int sign_bit_of(DataType dtype) {
  switch (dtype) {
    case DataType::kDouble: return 63;
    case DataType::kFloat16:
    case DataType::kBFloat16: return 15;
    default: return 31;
  }
}

}  // namespace

double ulp_distance(double a, double b, DataType dtype) {
  if (!dtype_is_float(dtype)) return std::fabs(a - b);
  return ordered_distance(bits_of(a, dtype), bits_of(b, dtype), sign_bit_of(dtype));
}

double fp16_ulp(double x) {
  const double a = std::fabs(x);
  if (a < 0x1p-14) return 0x1p-24;
  int exponent = 0;
  std::frexp(a, &exponent);  // a = f * 2^exponent, f in [0.5, 1)
  return std::ldexp(1.0, exponent - 11);
}

double smallest_normal(DataType dtype) {
  switch (dtype) {
    case DataType::kDouble: return std::numeric_limits<double>::min();
    case DataType::kFloat16: return 6.103515625e-05;  // 2^-14
    case DataType::kFloat:
    case DataType::kBFloat16: return std::numeric_limits<float>::min();  // 2^-126
    default: return 1;
  }
}

std::vector<double> to_doubles(const Tensor& t) {
  std::vector<double> out(static_cast<size_t>(t.numel()));
  const size_t n = out.size();
  auto copy = [&](auto tag) {
    using T = decltype(tag);
    const T* p = t.data<T>();
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<double>(p[i]);
  };
  switch (t.dtype()) {
    case DataType::kFloat: copy(float{}); break;
    case DataType::kDouble: copy(double{}); break;
    case DataType::kFloat16: {
      const Float16* p = t.data<Float16>();
      for (size_t i = 0; i < n; ++i) out[i] = math::to_float(p[i]);
      break;
    }
    case DataType::kBFloat16: {
      const BFloat16* p = t.data<BFloat16>();
      for (size_t i = 0; i < n; ++i) out[i] = math::to_float(p[i]);
      break;
    }
    case DataType::kInt8: copy(int8_t{}); break;
    case DataType::kInt16: copy(int16_t{}); break;
    case DataType::kInt32: copy(int32_t{}); break;
    case DataType::kInt64: copy(int64_t{}); break;
    case DataType::kUInt8: copy(uint8_t{}); break;
    case DataType::kUInt16: copy(uint16_t{}); break;
    case DataType::kUInt32: copy(uint32_t{}); break;
    case DataType::kUInt64: copy(uint64_t{}); break;
    case DataType::kBool: copy(bool{}); break;
    default: break;  // callers check the dtype first
  }
  return out;
}

}  // namespace twinrt::parity
