#include "io/random_tensor.h"

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

constexpr int64_t kIntRange = 10;

// Mantissa bits of T, so uniform01 values convert to T exactly (never round up to 1).
template <class T>
constexpr int precision_bits() {
  if constexpr (std::is_same_v<T, Float16>) return 11;
  else if constexpr (std::is_same_v<T, BFloat16>) return 8;
  else if constexpr (std::is_same_v<T, float>) return 24;
  else return 53;
}

template <class T>
T random_value(Rng& rng) {
  if constexpr (std::is_same_v<T, bool>) {
    return (rng.next() >> 63) != 0;
  } else if constexpr (std::is_same_v<T, Float16>) {
    return math::to_float16(static_cast<float>(rng.uniform01(precision_bits<T>())));
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return math::to_bfloat16(static_cast<float>(rng.uniform01(precision_bits<T>())));
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(rng.uniform01(precision_bits<T>()));
  } else {
    return static_cast<T>(rng.below(kIntRange));
  }
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

Result<Tensor> random_tensor(DataType dtype, const std::vector<int64_t>& shape, uint64_t seed) {
  ASSIGN_OR_RETURN(Tensor t, Tensor::create(dtype, shape));
  Rng rng(seed);
  Status st = dispatch<kAllNumeric | kBoolT>(dtype, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    T* out = t.data<T>();
    for (int64_t i = 0; i < t.numel(); ++i) out[i] = random_value<T>(rng);
    return Status::ok();
  });
  if (!st) return not_implemented(std::string("cannot generate random ") + dtype_name(dtype) + " values");
  return t;
}

}  // namespace twinrt::io
