// Seeded random tensors that are the same on every platform and compiler: twinrt's own
// generator (xoshiro256** seeded by splitmix64) and its own integer-to-value mapping,
// because std::uniform_*_distribution differs between standard libraries.
#pragma once

#include <cstdint>
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

// floats uniform in [0, 1); integers uniform in [0, 10); bool true with probability 1/2.
// Strings and complex numbers are refused (not_implemented).
Result<Tensor> random_tensor(DataType dtype, const std::vector<int64_t>& shape, uint64_t seed);

}  // namespace twinrt::io
