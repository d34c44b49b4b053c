// Charges the tensors one run allocates against the session's resource limits: a value
// larger than the largest tensor allowed, or one that would take the values alive beyond
// the memory limit, is an error naming its shape (and, through the executor, its node)
// instead of an allocation that exhausts the machine. Shapes that depend on data (Expand,
// Tile, ConstantOfShape, Range ...) are only known here.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/resource_limits.h"
#include "twinrt/tensor.h"

namespace twinrt {

// An empty tensor holds nothing, but kernels still loop over its other dims: ArgMax spun
// 2^40 times over a [1099511627776,3,0] feed. So a shape with a 0 is refused when its dims,
// each 0 counted as 1, would need more than the largest tensor allowed. Non-empty shapes pass
// here (check_tensor_bytes covers them); `what` names the tensor.
Status check_empty_extent(size_t element_size, const std::vector<int64_t>& shape, const std::string& what,
                          const ResourceLimits& limits);

class MemoryBudget {
 public:
  // `in_use`: bytes already held for the run (weights, feeds).
  MemoryBudget(ResourceLimits limits, uint64_t in_use) : limits_(limits), used_(in_use) {}
  // Holds `bytes` for a new tensor, or refuses it.
  Status charge(uint64_t bytes, DataType dtype, const std::vector<int64_t>& shape);
  // As charge, without holding anything.
  Status check(uint64_t bytes, DataType dtype, const std::vector<int64_t>& shape) const;
  void release(uint64_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }

 private:
  // ok, or the first limit a new tensor breaks with `used` bytes already held.
  Status verdict(uint64_t used, uint64_t bytes, DataType dtype, const std::vector<int64_t>& shape) const;

  ResourceLimits limits_;
  std::atomic<uint64_t> used_;
};

// While a scope lives, tensors created on its thread are charged to its budget (and give
// their bytes back when freed, even after the scope ends). Scopes nest.
class BudgetScope {
 public:
  explicit BudgetScope(std::shared_ptr<MemoryBudget> budget);
  ~BudgetScope();
  BudgetScope(const BudgetScope&) = delete;
  BudgetScope& operator=(const BudgetScope&) = delete;
  // The innermost scope's budget on this thread; null outside every scope.
  static const std::shared_ptr<MemoryBudget>& current();

 private:
  std::shared_ptr<MemoryBudget> previous_;
};

}  // namespace twinrt
