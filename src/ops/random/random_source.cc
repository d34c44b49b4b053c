#include "ops/random/random_source.h"

#include <cmath>
#include <cstring>

#include "kernels/math/math.h"

namespace twinrt {
namespace {

constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;
constexpr double kTwoPi = 6.283185307179586476925286766559;

uint64_t mix64(uint64_t z) {  // the SplitMix64 finalizer
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t hash_string(const std::string& s) {  // FNV-1a
  uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ull;
  return h;
}

}  // namespace

uint64_t RandomDraws::bits(uint64_t i) const { return mix64(key_ + (i + 1) * kGolden); }

double RandomDraws::uniform(uint64_t i) const {
  return static_cast<double>(bits(i) >> 11) * 0x1.0p-53;
}

double RandomDraws::standard_normal(uint64_t i) const {
  const double u1 = 1.0 - uniform(2 * i);  // (0, 1]: log stays finite
  const double u2 = uniform(2 * i + 1);
  return std::sqrt(-2.0 * math::log(u1)) * math::cos(kTwoPi * u2);
}

Result<RandomSource> RandomSource::from_node(const KernelInit& init) {
  if (const ir::Attribute* a = init.attr("seed")) {
    if (a->type != ir::Attribute::Type::kFloat) return init.error("attribute 'seed' must be a float");
    uint32_t seed_bits;
    std::memcpy(&seed_bits, &a->f, sizeof seed_bits);
    return RandomSource(mix64(seed_bits), true);
  }
  const std::string name = init.node.outputs.empty() ? init.node.name : init.node.outputs[0];
  return RandomSource(mix64(hash_string(name)), false);
}

RandomDraws RandomSource::next_run() const {
  if (seeded_) return RandomDraws(key_);
  const uint64_t run = runs_.fetch_add(1, std::memory_order_relaxed);
  return RandomDraws(mix64(key_ ^ (run * kGolden)));
}

}  // namespace twinrt
