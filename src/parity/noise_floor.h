// The model's own noise floor: how far its outputs move when the baseline engine reruns it
// on inputs moved by a few ULPs. Chained quantizers, argmax-like steps and thresholds make
// some models jump under any change of their inputs; an engine difference no larger than
// that jump says nothing about the engine. See docs/parity.md, "Noise floor".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "parity/comparison.h"
#include "parity/inputs.h"
#include "parity/report.h"

namespace twinrt::parity {

struct NoiseSettings {
  int runs = 3;   // perturbed reruns; the floor is the largest movement among them
  int ulps = 2;   // each float input element moves by a random whole number of ULPs in [-ulps, ulps]
  uint64_t seed = 1;
};

// `input` with every float element (float32, float16, bfloat16, float64) moved by a random
// whole number of ULPs of its own dtype in [-ulps, ulps]; NaN, infinities and non-float
// tensors unchanged, finite values never pushed to infinity. The same seed gives the same case.
InputCase perturbed_case(const InputCase& input, int ulps, uint64_t seed);

// The seed of rerun `run` of case `case_index`, so compare and localize perturb alike.
uint64_t noise_seed(const NoiseSettings& settings, int run, size_t case_index);

// Reruns `engine_name` on every case perturbed, settings.runs times, and returns per output
// the largest movement from `baseline`'s outputs. Fails when the engine fails on a rerun.
Result<std::map<std::string, NoiseFloor>> measure_noise_floor(const std::string& engine_name,
                                                              const engines::EngineOptions& options,
                                                              const std::string& model_path, const InputSet& inputs,
                                                              const EngineRun& baseline,
                                                              const std::vector<std::string>& outputs,
                                                              const NoiseSettings& settings);

// An output whose difference to the baseline is no larger than the model's own movement
// (max abs at most the floor's, cosine at least the floor's): sets within_noise_floor.
void judge_against_noise_floor(OutputComparison& comparison, const NoiseFloor& floor);

// max |a - b| over two tensors of the same shape (integers: plus the number of elements
// that differ); +inf when they cannot be compared or when NaN/Inf appear on one side only.
double max_abs_difference(const Tensor& a, const Tensor& b);

}  // namespace twinrt::parity
