// The per-run memory budget: tensors charge it while a scope is active and give their bytes
// back when freed, on whatever thread frees them.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "ir/memory_budget.h"

namespace twinrt {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

TEST(MemoryBudget, OutsideAScopeNothingIsCharged) {
  auto budget = std::make_shared<MemoryBudget>(ResourceLimits{kMiB, kMiB}, 0);
  EXPECT_TRUE(Tensor::create(DataType::kFloat, {1024, 1024}));  // 4 MiB: no scope, no limit
  BudgetScope scope(budget);
  EXPECT_FALSE(Tensor::create(DataType::kFloat, {1024, 1024}));
}

TEST(MemoryBudgetThreads, TensorsMadeAndFreedOnSeveralThreadsGiveTheirBytesBack) {
  auto budget = std::make_shared<MemoryBudget>(ResourceLimits{4 * kMiB, 4 * kMiB}, 0);
  std::vector<Tensor> kept;
  {
    BudgetScope scope(budget);
    for (int i = 0; i < 16; ++i) kept.push_back(Tensor::create(DataType::kFloat, {1024}).value());
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&budget] {
      BudgetScope scope(budget);
      for (int i = 0; i < 200; ++i) ASSERT_TRUE(Tensor::create(DataType::kFloat, {1024}));
    });
  threads.emplace_back([&kept] { kept.clear(); });  // freed on another thread than made
  for (auto& t : threads) t.join();
  // Everything went back: the whole limit is free again, and not a byte more.
  BudgetScope scope(budget);
  auto whole = Tensor::create(DataType::kFloat, {1024, 1024});
  ASSERT_TRUE(whole) << whole.status().message();
  EXPECT_FALSE(Tensor::create(DataType::kFloat, {1}));
}

}  // namespace
}  // namespace twinrt
