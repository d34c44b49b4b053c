// Seeded random tensors that are the same on every platform and compiler: twinrt's own
// generator (xoshiro256** seeded by splitmix64) and its own integer-to-value mapping,
// because std::uniform_*_distribution differs between standard libraries.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::io {

class Rng {
 public:
  explicit Rng(uint64_t seed);
  uint64_t next();
  // Uniform in [0, 1) with `bits` random mantissa bits, so the value is exact in a type
  // with that much precision (11 for float16, 8 for bfloat16, 24 float, 53 double).
  double uniform01(int bits);
  // Uniform in [0, n) for n >= 1 (multiply-shift; the bias for small n is below 2^-32).
  uint64_t below(uint64_t n);

 private:
  uint64_t s_[4];
};

// A seed for stream `stream` (e.g. the input index) derived from a base seed, so each
// input gets different values while one --seed still reproduces the whole run.
uint64_t derive_seed(uint64_t base, uint64_t stream);

// A range [lo, hi) for random values. Floats are lo + (hi - lo) * u rounded to the element
// type and kept inside [lo, hi); integers are the whole numbers n with lo <= n < hi (at
// most 2^32 of them), each equally likely.
struct ValueRange {
  double lo = 0;
  double hi = 1;
};

// Without a range: floats uniform in [0, 1); integers uniform in [0, 10). Bool is true
// with probability 1/2 and takes no range. Strings and complex numbers are refused
// (not_implemented); a range that is empty or outside the dtype is invalid_argument.
Result<Tensor> random_tensor(DataType dtype, const std::vector<int64_t>& shape, uint64_t seed,
                             std::optional<ValueRange> range = std::nullopt);

}  // namespace twinrt::io
