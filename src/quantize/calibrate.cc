#include "quantize/calibrate.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

#include "runtime/session_impl.h"

namespace twinrt::quantize {
namespace {

constexpr int kBins = 4096;

struct Stats {
  float lo = INFINITY, hi = -INFINITY;
  std::vector<uint64_t> histogram;  // second pass (percentile): kBins over [lo, hi]
  uint64_t count = 0;
};

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

// The value at which `share` (0..1) of the histogram's mass lies below.
float quantile(const Stats& s, double share) {
  const double target = share * static_cast<double>(s.count);
  double seen = 0;
  const double width = (static_cast<double>(s.hi) - s.lo) / kBins;
  for (int b = 0; b < kBins; ++b) {
    seen += static_cast<double>(s.histogram[static_cast<size_t>(b)]);
    if (seen >= target) return static_cast<float>(s.lo + width * (b + 1));
  }
  return s.hi;
}

}  // namespace

Result<std::map<std::string, std::pair<float, float>>> calibrate(const ir::Model& model,
                                                                  const std::vector<std::string>& values,
                                                                  const std::vector<Feeds>& cases,
                                                                  const QuantizeOptions& options,
                                                                  const std::function<void(size_t, size_t)>& progress) {
  if (cases.empty()) return invalid_argument("calibration needs at least one input case");
  ASSIGN_OR_RETURN(auto session, exposing_session(model, values));
  const bool percentile = options.calibration == Calibration::kPercentile;
  const size_t total = cases.size() * (percentile ? 2 : 1);
  std::map<std::string, Stats> stats;
  size_t done = 0;
  for (int pass = 0; pass < (percentile ? 2 : 1); ++pass) {
    for (const Feeds& feeds : cases) {
      std::map<std::string, Value> in;
      for (const auto& [name, t] : feeds) in[name] = Value::of(t);
      ASSIGN_OR_RETURN(auto out, session->run(in));
      for (const std::string& v : values) {
        ASSIGN_OR_RETURN(const Tensor* t, float_output(out, v));
        Stats& s = stats[v];
        const float* p = t->data<float>();
        if (pass == 0) {
          for (int64_t i = 0; i < t->numel(); ++i)
            if (std::isfinite(p[i])) s.lo = std::min(s.lo, p[i]), s.hi = std::max(s.hi, p[i]);
          continue;
        }
        if (s.histogram.empty()) s.histogram.assign(kBins, 0);
        const double scale = s.hi > s.lo ? kBins / (static_cast<double>(s.hi) - s.lo) : 0.0;
        for (int64_t i = 0; i < t->numel(); ++i) {
          if (!std::isfinite(p[i])) continue;
          const int b = std::clamp(static_cast<int>((p[i] - s.lo) * scale), 0, kBins - 1);
          ++s.histogram[static_cast<size_t>(b)];
          ++s.count;
        }
      }
      if (progress) progress(++done, total);
    }
  }
  std::map<std::string, std::pair<float, float>> ranges;
  for (const std::string& v : values) {
    const Stats& s = stats[v];
    if (!(s.lo <= s.hi)) {
      ranges[v] = {0.0f, 0.0f};
      continue;
    }
    if (!percentile || s.count == 0) {
      ranges[v] = {s.lo, s.hi};
      continue;
    }
    const double tail = (100.0 - options.percentile) / 100.0;
    ranges[v] = {s.lo < 0 ? quantile(s, tail) : s.lo, quantile(s, 1.0 - tail)};
  }
  return ranges;
}

}  // namespace twinrt::quantize
