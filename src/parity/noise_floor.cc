#include "parity/noise_floor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

#include "parity/metrics_parts.h"

namespace twinrt::parity {
namespace {

// A sign-magnitude float pattern moved `steps` along the line of representable values,
// kept finite: `max_magnitude` is the largest finite magnitude's bit pattern.
template <class Bits>
Bits step_bits(Bits bits, int steps, int sign_bit, Bits max_magnitude) {
  const Bits sign = Bits{1} << sign_bit;
  const Bits magnitude = bits & (sign - 1);
  if (magnitude > max_magnitude) return bits;  // NaN or infinity
  const int64_t ordered = (bits & sign) ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  const int64_t moved = ordered + steps;
  const Bits moved_magnitude = static_cast<Bits>(moved < 0 ? -moved : moved);
  if (moved_magnitude > max_magnitude) return bits;
  return moved < 0 ? static_cast<Bits>(moved_magnitude | sign) : moved_magnitude;
}

// Every element of `t` (elements of sizeof(Bits) bytes) moved by draw() ULPs.
template <class Bits>
void perturb(Tensor& t, int sign_bit, Bits max_magnitude, const std::function<int()>& draw) {
  auto* p = static_cast<unsigned char*>(t.raw());
  for (int64_t i = 0; i < t.numel(); ++i) {
    Bits bits;
    std::memcpy(&bits, p + i * sizeof bits, sizeof bits);
    bits = step_bits<Bits>(bits, draw(), sign_bit, max_magnitude);
    std::memcpy(p + i * sizeof bits, &bits, sizeof bits);
  }
}

void keep_worst(NoiseFloor& floor, const TensorMetrics& m) {
  const bool non_finite = m.nan_mismatches || m.inf_mismatches;
  floor.max_abs = std::max(floor.max_abs, non_finite ? std::numeric_limits<double>::infinity() : m.max_abs);
  floor.cosine = std::min(floor.cosine, m.cosine);
}

}  // namespace

InputCase perturbed_case(const InputCase& input, int ulps, uint64_t seed) {
  InputCase out = input;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> offset(-ulps, ulps);
  const std::function<int()> draw = [&] { return offset(rng); };
  for (auto& [name, tensor] : out.tensors) {
    if (!dtype_is_float(tensor.dtype())) continue;
    auto copy = tensor.clone();
    if (!copy) continue;  // out of memory: leave this input as it was
    Tensor& t = *copy;
    switch (t.dtype()) {
      case DataType::kFloat: perturb<uint32_t>(t, 31, 0x7F7FFFFFu, draw); break;
      case DataType::kDouble: perturb<uint64_t>(t, 63, 0x7FEFFFFFFFFFFFFFull, draw); break;
      case DataType::kFloat16: perturb<uint16_t>(t, 15, 0x7BFF, draw); break;
      case DataType::kBFloat16: perturb<uint16_t>(t, 15, 0x7F7F, draw); break;
      default: break;
    }
    tensor = std::move(t);
  }
  return out;
}

Result<std::map<std::string, NoiseFloor>> measure_noise_floor(const std::string& engine_name,
                                                              const engines::EngineOptions& options,
                                                              const std::string& model_path, const InputSet& inputs,
                                                              const EngineRun& baseline,
                                                              const std::vector<std::string>& outputs,
                                                              const NoiseSettings& settings) {
  std::map<std::string, NoiseFloor> floors;
  for (const auto& name : outputs) floors[name] = NoiseFloor{settings.runs, settings.ulps, 0, 1};
  ASSIGN_OR_RETURN(auto engine, engines::make_engine(engine_name, options));
  for (int r = 0; r < settings.runs; ++r) {
    InputSet moved = inputs;
    for (size_t c = 0; c < moved.cases.size(); ++c)
      moved.cases[c] = perturbed_case(inputs.cases[c], settings.ulps, noise_seed(settings, r, c));
    EngineRun rerun = run_cases(*engine, baseline.entry.name, model_path, moved, outputs);
    if (!rerun.entry.ok) return Status(rerun.failure, "noise floor rerun of " + engine_name + ": " + rerun.entry.error);
    for (size_t c = 0; c < rerun.per_case.size() && c < baseline.per_case.size(); ++c)
      for (const auto& name : outputs) {
        auto ref = baseline.per_case[c].find(name);
        auto moved_out = rerun.per_case[c].find(name);
        if (ref == baseline.per_case[c].end() || moved_out == rerun.per_case[c].end())
          return invalid_argument("noise floor: " + engine_name + " did not return output '" + name + "'");
        auto m = compare_tensors(ref->second, moved_out->second, CompareOptions{});
        if (!m) return m.status().with_context("noise floor of output '" + name + "': ");
        keep_worst(floors[name], *m);
      }
  }
  return floors;
}

uint64_t noise_seed(const NoiseSettings& settings, int run, size_t case_index) {
  return settings.seed + static_cast<uint64_t>(run) * 1000003 + case_index;
}

void judge_against_noise_floor(OutputComparison& c, const NoiseFloor& floor) {
  c.noise_floor = floor;
  c.within_noise_floor = !c.verdict.passed && c.metrics.nan_mismatches == 0 && c.metrics.inf_mismatches == 0 &&
                         c.metrics.max_abs <= floor.max_abs && c.metrics.cosine >= floor.cosine;
}

double max_abs_difference(const Tensor& a, const Tensor& b) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (a.shape() != b.shape() || a.dtype() == DataType::kString || b.dtype() == DataType::kString ||
      !a.defined() || !b.defined())
    return kInf;
  // One pass without the full metrics: localize calls this twice per tensor of a large model.
  const std::vector<double> x = to_doubles(a), y = to_doubles(b);
  const bool floats = dtype_is_float(a.dtype());
  double worst = 0;
  int64_t mismatches = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double p = x[i], q = y[i];
    if (std::isnan(p) || std::isnan(q)) {
      if (std::isnan(p) && std::isnan(q)) continue;
      return kInf;
    }
    if (std::isinf(p) || std::isinf(q)) {
      if (p == q) continue;
      return kInf;
    }
    worst = std::max(worst, std::fabs(p - q));
    mismatches += p != q;
  }
  return floats ? worst : worst + static_cast<double>(mismatches);  // integers: values apart and how many
}

}  // namespace twinrt::parity
