// Memory planning: decides when each value's memory is released. The default planner
// frees every value right after its last reader. A static arena planner (offsets computed
// from inferred shapes, in-place reuse where ops allow) can replace it behind this
// interface without touching the executor.
#pragma once

#include "runtime/plan.h"

namespace twinrt {

class MemoryPlanner {
 public:
  virtual ~MemoryPlanner() = default;
  // Fills Step::free_after for every step of `g` (not of nested graphs).
  virtual void plan(Subgraph& g) const = 0;
};

class LastUsePlanner final : public MemoryPlanner {
 public:
  void plan(Subgraph& g) const override;
};

}  // namespace twinrt
