// Metric names as policies see them, shared by evaluation and the policy-file loader.
#pragma once

#include <optional>
#include <string>

#include "parity/metrics.h"
#include "parity/policy.h"

namespace twinrt::parity {

// The value of a named metric; nullopt for an unknown name or a task metric that was not
// computed (no probability / box / pixel metrics in `m`).
std::optional<double> metric_value(const TensorMetrics& m, const std::string& name);
bool is_known_metric(const std::string& name);
// Why a task metric is missing: which CompareOptions (CLI flag) computes it.
std::string missing_metric_reason(const std::string& name);
// screen for NaN/Inf mismatches and cosine, task for task metrics, numeric otherwise.
Layer default_layer(const std::string& metric);

}  // namespace twinrt::parity
