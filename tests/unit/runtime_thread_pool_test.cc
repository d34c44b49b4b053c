// The thread pool's splits: every index handed out exactly once, and each thread starting
// on its own share (ShareClaims), so that ops split the same way keep their data on the
// thread that wrote it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/thread_pool.h"

namespace twinrt {
namespace {

TEST(ShareClaims, OneThreadTakesItsShareThenTheOthersInOrder) {
  // Shares of 10 tasks over 3: [0, 3), [3, 6), [6, 10). The calling thread is index 0.
  ShareClaims claims(10, 3);
  std::vector<int64_t> order;
  for (int64_t t; (t = claims.claim()) >= 0;) order.push_back(t);
  EXPECT_EQ(order, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(claims.claim(), -1);
}

TEST(ShareClaims, MoreSharesThanTasksAndNoTasks) {
  ShareClaims few(2, 5);
  std::vector<int64_t> order;
  for (int64_t t; (t = few.claim()) >= 0;) order.push_back(t);
  EXPECT_EQ(order, (std::vector<int64_t>{0, 1}));
  ShareClaims none(0, 2);
  EXPECT_EQ(none.claim(), -1);
}

TEST(ThreadPool, EachThreadStartsOnItsOwnShareAndEveryTaskRunsOnce) {
  constexpr int kThreads = 3;
  constexpr int64_t kTasks = 300;
  ThreadPool pool(kThreads);
  ASSERT_EQ(pool.size(), kThreads);
  ShareClaims claims(kTasks, kThreads);
  std::vector<std::atomic<int>> runs(kTasks);
  std::atomic<int> arrived{0};
  std::mutex mu;
  std::vector<std::pair<int, int64_t>> first_task;  // (thread index, its first task)
  pool.parallel_for(kThreads, 1, [&](int64_t, int64_t) {
    const int64_t first = claims.claim();
    if (first < 0) return;
    {
      std::lock_guard<std::mutex> lock(mu);
      first_task.emplace_back(ThreadPool::thread_index(), first);
    }
    // Until every thread has its first task (or a second has passed: a thread may run two
    // chunks when a worker wakes late), nobody takes from another's share.
    ++arrived;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (arrived.load() < kThreads && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    ++runs[static_cast<size_t>(first)];
    for (int64_t t; (t = claims.claim()) >= 0;) ++runs[static_cast<size_t>(t)];
  });
  for (int64_t t = 0; t < kTasks; ++t) EXPECT_EQ(runs[static_cast<size_t>(t)].load(), 1) << "task " << t;
  if (arrived.load() < kThreads) GTEST_SKIP() << "a worker did not start in time; shares not checked";
  for (const auto& [thread, first] : first_task) EXPECT_EQ(first, thread * (kTasks / kThreads)) << "thread " << thread;
}

TEST(ThreadPool, ParallelForCoversEveryIndexOnceAtAnyGrain) {
  ThreadPool pool(2);
  for (int64_t grain : {1, 3, 7, 64}) {
    std::vector<std::atomic<int>> seen(101);
    pool.parallel_for(101, grain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) ++seen[static_cast<size_t>(i)];
    });
    for (size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i].load(), 1) << "grain " << grain << " index " << i;
  }
}

TEST(ThreadPool, WorkersKnowTheirIndexAndTheCallerIsZero) {
  EXPECT_EQ(ThreadPool::thread_index(), 0);
  ThreadPool pool(2);
  std::atomic<int> workers_seen{0};
  for (int attempt = 0; attempt < 10 && workers_seen.load() == 0; ++attempt)
    pool.parallel_for(2, 1, [&](int64_t, int64_t) {
      const int index = ThreadPool::thread_index();
      EXPECT_TRUE(index == 0 || index == 1) << index;
      if (index == 1) ++workers_seen;
      // The caller waits a while for the worker to take its own chunk (else it takes both).
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
      while (index == 0 && workers_seen.load() == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
    });
  EXPECT_GT(workers_seen.load(), 0) << "the worker never ran a chunk";
}

// Workers that polled too long sleep on the pool's condition variable; the next call must
// wake them (the caller notifies only when one sleeps).
TEST(ThreadPool, SleepingWorkersWakeForTheNextCall) {
  ThreadPool pool(2);
  for (int round = 0; round < 3; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // far past the polling
    std::atomic<bool> worker_ran{false};
    pool.parallel_for(2, 1, [&](int64_t, int64_t) {
      if (ThreadPool::thread_index() == 1) worker_ran = true;
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
      while (ThreadPool::thread_index() == 0 && !worker_ran.load() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
    });
    EXPECT_TRUE(worker_ran.load()) << "round " << round << ": the sleeping worker was not woken";
  }
}

// "Safe to call from several threads": callers on their own threads, and calls made from
// inside a chunk, share the workers; every index of every call runs once.
TEST(ThreadPool, ConcurrentAndNestedCallsEachCoverTheirIndices) {
  ThreadPool pool(3);
  constexpr int kCallers = 3, kCalls = 200;
  std::atomic<int64_t> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c)
    callers.emplace_back([&] {
      for (int call = 0; call < kCalls; ++call) {
        std::atomic<int64_t> sum{0};
        pool.parallel_for(8, 1, [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i)
            pool.parallel_for(4, 1, [&](int64_t b, int64_t e) { sum += e - b; });
        });
        total += sum.load();
      }
    });
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(total.load(), int64_t{kCallers} * kCalls * 8 * 4);
}

}  // namespace
}  // namespace twinrt
