#include "cli/latency_stats.h"

#include <algorithm>
#include <cmath>

namespace twinrt::cli {
namespace {

double nearest_rank(const std::vector<double>& sorted, double percent) {
  const double rank = std::ceil(percent / 100.0 * static_cast<double>(sorted.size()));
  const size_t index = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return sorted[std::min(index, sorted.size() - 1)];
}

}  // namespace

LatencySummary summarize_latencies(std::vector<double> samples) {
  LatencySummary s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  double sum = 0;
  for (double v : samples) sum += v;
  s.min = samples.front();
  s.max = samples.back();
  s.mean = sum / static_cast<double>(samples.size());
  s.p50 = nearest_rank(samples, 50);
  s.p90 = nearest_rank(samples, 90);
  s.p99 = nearest_rank(samples, 99);
  return s;
}

}  // namespace twinrt::cli
