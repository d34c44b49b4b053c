#include "io/random_tensor.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/math/half.h"
#include "ops/common/dispatch.h"

namespace twinrt::io {
namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

constexpr uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// Mantissa bits of T, so uniform01 values convert to T exactly (never round up to 1).
template <class T>
constexpr int precision_bits() {
  if constexpr (std::is_same_v<T, Float16>) return 11;
  else if constexpr (std::is_same_v<T, BFloat16>) return 8;
  else if constexpr (std::is_same_v<T, float>) return 24;
  else return 53;
}

template <class T>
constexpr bool is_float_type() {
  return std::is_floating_point_v<T> || std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;
}

template <class T>
double to_double(T v) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) return math::to_float(v);
  else return static_cast<double>(v);
}

template <class T>
T from_double(double v) {
  if constexpr (std::is_same_v<T, Float16>) return math::to_float16(static_cast<float>(v));
  else if constexpr (std::is_same_v<T, BFloat16>) return math::to_bfloat16(static_cast<float>(v));
  else return static_cast<T>(v);
}

// The next value of T above (up) or below a finite v.
template <class T>
T step(T v, bool up) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::nextafter(v, up ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity());
  } else {  // float16 / bfloat16: sign-magnitude bit patterns
    const bool negative = (v.bits & 0x8000u) != 0;
    const uint16_t magnitude = v.bits & 0x7fffu;
    if (magnitude == 0) return T{static_cast<uint16_t>(up ? 0x0001u : 0x8001u)};
    return T{static_cast<uint16_t>(up != negative ? v.bits + 1 : v.bits - 1)};
  }
}

template <class T>
double largest_finite() {
  if constexpr (std::is_same_v<T, Float16>) return 65504.0;
  else if constexpr (std::is_same_v<T, BFloat16>) return 3.3895313892515355e38;
  else return static_cast<double>(std::numeric_limits<T>::max());
}

template <class T>
Status fill(Tensor& t, Rng& rng, std::optional<ValueRange> range) {
  T* out = t.data<T>();
  if constexpr (std::is_same_v<T, bool>) {
    if (range) return invalid_argument("a value range does not apply to bool values");
    for (int64_t i = 0; i < t.numel(); ++i) out[i] = (rng.next() >> 63) != 0;
  } else if constexpr (is_float_type<T>()) {
    const ValueRange r = range.value_or(ValueRange{0, 1});
    if (!(r.lo < r.hi) || r.lo < -largest_finite<T>() || r.hi > largest_finite<T>())
      return invalid_argument("range [" + std::to_string(r.lo) + ", " + std::to_string(r.hi) +
                              ") is empty or outside " + dtype_name(dtype_of<T>()));
    for (int64_t i = 0; i < t.numel(); ++i) {
      T v = from_double<T>(r.lo + (r.hi - r.lo) * rng.uniform01(precision_bits<T>()));
      if (to_double(v) >= r.hi) v = step(v, false);  // rounding reached hi
      if (to_double(v) < r.lo) v = step(v, true);
      if (to_double(v) < r.lo || to_double(v) >= r.hi)
        return invalid_argument("range [" + std::to_string(r.lo) + ", " + std::to_string(r.hi) +
                                ") holds no " + dtype_name(dtype_of<T>()) + " value");
      out[i] = v;
    }
  } else {
    const ValueRange r = range.value_or(ValueRange{0, 10});
    const double lo = std::ceil(r.lo), hi = std::ceil(r.hi);  // the integers n with lo <= n < hi
    if (!(lo < hi) || lo < static_cast<double>(std::numeric_limits<T>::min()) ||
        hi - 1 > static_cast<double>(std::numeric_limits<T>::max()) || hi - lo > 4294967296.0)
      return invalid_argument("range [" + std::to_string(r.lo) + ", " + std::to_string(r.hi) +
                              ") holds no " + dtype_name(dtype_of<T>()) +
                              " value, is outside the type or spans more than 2^32 values");
    using Wide = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    const auto count = static_cast<uint64_t>(hi - lo);
    for (int64_t i = 0; i < t.numel(); ++i)
      out[i] = static_cast<T>(static_cast<Wide>(lo) + static_cast<Wide>(rng.below(count)));
  }
  return Status::ok();
}

}  // namespace

Rng::Rng(uint64_t seed) {
  for (uint64_t& word : s_) word = splitmix64(seed);
}

uint64_t Rng::next() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Rng::uniform01(int bits) {
  // An integer below 2^bits scaled by 2^-bits: exact in double for bits <= 53.
  return static_cast<double>(next() >> (64 - bits)) / static_cast<double>(uint64_t{1} << bits);
}

uint64_t Rng::below(uint64_t n) { return ((next() >> 32) * n) >> 32; }

uint64_t derive_seed(uint64_t base, uint64_t stream) {
  uint64_t state = base ^ (stream * 0xd1342543de82ef95ull);
  return splitmix64(state);
}

Result<Tensor> random_tensor(DataType dtype, const std::vector<int64_t>& shape, uint64_t seed,
                             std::optional<ValueRange> range) {
  ASSIGN_OR_RETURN(Tensor t, Tensor::create(dtype, shape));
  Rng rng(seed);
  Status filled = Status::ok();
  Status st = dispatch<kAllNumeric | kBoolT>(dtype, [&](auto* tag) {
    filled = fill<std::remove_pointer_t<decltype(tag)>>(t, rng, range);
    return Status::ok();
  });
  if (!st) return not_implemented(std::string("cannot generate random ") + dtype_name(dtype) + " values");
  TRY(filled);
  return t;
}

}  // namespace twinrt::io
