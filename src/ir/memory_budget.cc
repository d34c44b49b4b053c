#include "ir/memory_budget.h"

#include <algorithm>

namespace twinrt {
namespace {

thread_local std::shared_ptr<MemoryBudget> current_budget;

std::string describe(DataType dtype, const std::vector<int64_t>& shape) {
  return std::string("a ") + dtype_name(dtype) + shape_to_string(shape) + " tensor";
}

}  // namespace

Status check_empty_extent(size_t element_size, const std::vector<int64_t>& shape, const std::string& what,
                          const ResourceLimits& limits) {
  if (limits.max_tensor_bytes == 0 || std::find(shape.begin(), shape.end(), 0) == shape.end()) return Status::ok();
  uint64_t extent = element_size;
  for (int64_t d : shape) {
    const uint64_t dim = d > 1 ? static_cast<uint64_t>(d) : 1;
    extent = extent > UINT64_MAX / dim ? UINT64_MAX : extent * dim;
  }
  if (extent <= limits.max_tensor_bytes) return Status::ok();
  return invalid_argument(what + " is empty, but its other dims would need " + format_bytes(extent) +
                          ", more than the largest tensor allowed (" + format_bytes(limits.max_tensor_bytes) +
                          "; --max-tensor-bytes)");
}

Status MemoryBudget::verdict(uint64_t used, uint64_t bytes, DataType dtype, const std::vector<int64_t>& shape) const {
  // Every tensor of every run comes here: the description is made only for an error.
  if (tensor_bytes_fit(bytes, limits_) && memory_bytes_fit(used, bytes, limits_) &&
      std::find(shape.begin(), shape.end(), 0) == shape.end())
    return Status::ok();
  const std::string what = describe(dtype, shape);
  TRY(check_tensor_bytes(bytes, what, limits_));
  TRY(check_empty_extent(dtype_size(dtype), shape, what, limits_));
  return check_memory_bytes(used, bytes, what, limits_);
}

Status MemoryBudget::charge(uint64_t bytes, DataType dtype, const std::vector<int64_t>& shape) {
  const uint64_t before = used_.fetch_add(bytes, std::memory_order_relaxed);
  Status within = verdict(before, bytes, dtype, shape);
  if (!within) release(bytes);
  return within;
}

Status MemoryBudget::check(uint64_t bytes, DataType dtype, const std::vector<int64_t>& shape) const {
  return verdict(used_.load(std::memory_order_relaxed), bytes, dtype, shape);
}

BudgetScope::BudgetScope(std::shared_ptr<MemoryBudget> budget) : previous_(std::move(current_budget)) {
  current_budget = std::move(budget);
}

BudgetScope::~BudgetScope() { current_budget = std::move(previous_); }

const std::shared_ptr<MemoryBudget>& BudgetScope::current() { return current_budget; }

}  // namespace twinrt
