#include "quantize/calibrate.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <set>

#include "quantize/histogram.h"
#include "runtime/session_impl.h"

namespace twinrt::quantize {
namespace {

constexpr int kPercentileBins = 4096;

struct Stats {
  float lo = INFINITY, hi = -INFINITY;
  std::optional<Histogram> histogram;  // second pass (percentile, entropy)
};

// The second pass's histogram: the values over [lo, hi] (percentile), or entropy's.
Histogram histogram_for(const Stats& s, Calibration method) {
  if (method == Calibration::kPercentile) return Histogram(s.lo, s.hi, kPercentileBins, false);
  return entropy_histogram(s.lo, s.hi);
}

// The range a method reads off a value's statistics.
std::pair<float, float> range_of(const Stats& s, const QuantizeOptions& options) {
  if (!(s.lo <= s.hi)) return {0.0f, 0.0f};
  if (!s.histogram || s.histogram->total == 0) return {s.lo, s.hi};
  const Histogram& h = *s.histogram;
  if (options.calibration == Calibration::kPercentile) {
    const double tail = (100.0 - options.percentile) / 100.0;
    return {s.lo < 0 ? static_cast<float>(h.quantile(tail)) : s.lo, static_cast<float>(h.quantile(1.0 - tail))};
  }
  return entropy_range(h, s.lo, s.hi);
}

// The model with every value in `values` also a graph output, ready to run.
Result<std::unique_ptr<SessionImpl>> exposing_session(const ir::Model& model, const std::vector<std::string>& values) {
  ir::Model copy = model;
  copy.graph = std::make_shared<ir::Graph>(*model.graph);
  std::set<std::string> outputs;
  for (const auto& o : copy.graph->outputs) outputs.insert(o.name);
  for (const std::string& v : values)
    if (outputs.insert(v).second) copy.graph->outputs.push_back(ir::ValueInfo{v, ir::TypeInfo::tensor(DataType::kFloat), {}});
  return SessionImpl::create(std::move(copy), SessionOptions{});
}

Result<const Tensor*> float_output(const std::map<std::string, Value>& out, const std::string& v) {
  auto it = out.find(v);
  if (it == out.end() || it->second.kind != Value::Kind::kTensor || it->second.tensor.dtype() != DataType::kFloat)
    return invalid_argument("calibration: value '" + v + "' is not a float32 tensor");
  return &it->second.tensor;
}

}  // namespace

Result<ActivationRanges> calibrate(const ir::Model& model, const std::vector<std::string>& values,
                                   const std::vector<Feeds>& cases, const QuantizeOptions& options,
                                   const std::function<void(size_t, size_t)>& progress) {
  if (cases.empty()) return invalid_argument("calibration needs at least one input case");
  ASSIGN_OR_RETURN(auto session, exposing_session(model, values));
  const int passes = options.calibration == Calibration::kMinMax ? 1 : 2;
  const size_t total = cases.size() * static_cast<size_t>(passes);
  std::map<std::string, Stats> stats;
  size_t done = 0;
  for (int pass = 0; pass < passes; ++pass) {
    for (const Feeds& feeds : cases) {
      std::map<std::string, Value> in;
      for (const auto& [name, t] : feeds) in[name] = Value::of(t);
      ASSIGN_OR_RETURN(auto out, session->run(in));
      for (const std::string& v : values) {
        ASSIGN_OR_RETURN(const Tensor* t, float_output(out, v));
        Stats& s = stats[v];
        const float* p = t->data<float>();
        if (pass == 1) {
          if (!s.histogram) s.histogram = histogram_for(s, options.calibration);
          s.histogram->add(p, t->numel());
          continue;
        }
        for (int64_t i = 0; i < t->numel(); ++i)
          if (std::isfinite(p[i])) s.lo = std::min(s.lo, p[i]), s.hi = std::max(s.hi, p[i]);
      }
      if (progress) progress(++done, total);
    }
  }
  ActivationRanges ranges;
  for (const std::string& v : values) ranges[v] = range_of(stats[v], options);
  return ranges;
}

}  // namespace twinrt::quantize
