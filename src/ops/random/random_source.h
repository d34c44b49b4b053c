// Where the random ops get their numbers.
//
// twinrt's generator is counter based: draw i of a run is a SplitMix64 hash of
// (key, i), so values depend only on the key and the element index — never on thread
// count, platform or evaluation order — and native and WebAssembly builds agree bit for
// bit. The values differ from ONNX Runtime's generator (the ONNX spec leaves the
// generator to the implementation; conformance tests check shape, type and value set).
//
// With a `seed` attribute every run draws the same numbers. Without one the key comes
// from the node's output name and a per-kernel run counter: successive runs differ, yet
// the sequence of runs of a session is reproducible.
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>

#include "kernels/math/half.h"
#include "ops/common/dispatch.h"
#include "ops/op.h"

namespace twinrt {

// The numbers of one run.
class RandomDraws {
 public:
  explicit RandomDraws(uint64_t key) : key_(key) {}
  uint64_t bits(uint64_t i) const;      // 64 random bits for draw i
  double uniform(uint64_t i) const;     // in [0, 1), 53 random bits
  double standard_normal(uint64_t i) const;  // N(0, 1), Box-Muller on draws 2i and 2i+1

 private:
  uint64_t key_;
};

class RandomSource {
 public:
  static Result<RandomSource> from_node(const KernelInit& init);
  RandomSource(const RandomSource& o) : key_(o.key_), seeded_(o.seeded_), runs_(o.runs_.load()) {}
  // The draws for one run (advances the run counter when unseeded).
  RandomDraws next_run() const;

 private:
  RandomSource(uint64_t key, bool seeded) : key_(key), seeded_(seeded) {}
  uint64_t key_;
  bool seeded_;
  mutable std::atomic<uint64_t> runs_{0};
};

// The output data type from a `dtype` attribute (one of the Allowed TypeSet), or
// `fallback` when the attribute is absent.
template <unsigned Allowed>
Result<DataType> dtype_attribute(const KernelInit& init, DataType fallback) {
  if (!init.has_attr("dtype")) return fallback;
  ASSIGN_OR_RETURN(int64_t code, init.attr_int("dtype", 0));
  const auto dtype = static_cast<DataType>(code);
  const bool valid = code >= 0 && code <= INT32_MAX && dtype_is_valid(static_cast<int32_t>(code)) &&
                     dispatch<Allowed>(dtype, [](auto*) { return Status::ok(); }).is_ok();
  if (!valid) return init.unsupported("attribute 'dtype' " + std::to_string(code) + " is not a supported output type");
  return dtype;
}

// Converts a double to an element type (float16/bfloat16 through float, bool as != 0).
template <class T>
T cast_from_double(double v) {
  if constexpr (std::is_same_v<T, Float16>) return math::to_float16(static_cast<float>(v));
  else if constexpr (std::is_same_v<T, BFloat16>) return math::to_bfloat16(static_cast<float>(v));
  else return static_cast<T>(v);
}

template <class T>
double cast_to_double(T v) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) return math::to_float(v);
  else return static_cast<double>(v);
}

}  // namespace twinrt
