// Sizes checked against the session's resource limits (docs/security.md) before anything
// is allocated for them.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "ir/resource_limits.h"
#include "runtime/plan.h"

namespace twinrt {

// Bytes of the weights (initializers) a plan holds.
uint64_t constant_bytes(const Subgraph& g);

// At load: every value of the main graph whose shape is fully known (declared inputs with
// their --dim values, and what shape inference derived) against the largest tensor; the
// inputs' declared sizes and the weights together against the memory limit.
Status check_declared_sizes(const Subgraph& g, const ResourceLimits& limits);

// Before a run: each feed against the largest tensor, and all of them with the weights
// against the memory limit. Returns the feeds' total bytes.
Result<uint64_t> check_feed_sizes(const std::map<std::string, Value>& feeds, const Subgraph& g,
                                  const ResourceLimits& limits);

}  // namespace twinrt
