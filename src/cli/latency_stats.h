// Latency percentiles for `twinrt bench`.
#pragma once

#include <vector>

namespace twinrt::cli {

struct LatencySummary {
  double min = 0, mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;  // same unit as the samples
};

// Nearest-rank percentiles (the smallest sample with at least p% of samples <= it), so
// every reported value is a measured one. Empty input gives all zeros.
LatencySummary summarize_latencies(std::vector<double> samples);

}  // namespace twinrt::cli
