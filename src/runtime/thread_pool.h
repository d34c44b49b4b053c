// A fixed pool of worker threads. parallel_for splits [0, n) into contiguous chunks whose
// boundaries depend only on n and the chunk size — never on timing — so each index is
// computed by exactly one call in a fixed order and results do not depend on scheduling.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "twinrt/status.h"

namespace twinrt {

// Sessions refuse more threads than this: more threads than any machine twinrt targets
// only cost memory (a stack each) and make a typo like `--threads 100000` fail late.
inline constexpr int kMaxThreads = 256;

class ThreadPool {
 public:
  // Starts threads - 1 workers (the caller is the last thread). Fails with a clear error,
  // after stopping the workers it did start, when the system cannot create a thread
  // (pids limit, memory) or when threads is outside [1, kMaxThreads].
  static Result<std::unique_ptr<ThreadPool>> create(int threads);
  // Best effort, never fails: as create(), but keeps running with the workers it could
  // start. Results never depend on the number of threads, only speed does.
  explicit ThreadPool(int threads);  // threads <= 1: everything runs on the caller
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  // The calling thread's place in the pool that runs it: 1..size()-1 on a worker, 0 on any
  // other thread (the caller of parallel_for).
  static int thread_index();
  // Calls fn(begin, end) on chunks of about `grain` indices (at least one chunk per
  // thread when n allows). The caller participates; safe to call from several threads.
  void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

 private:
  ThreadPool() = default;
  Status start_workers(int threads);
  void worker_loop();
  struct Job;  // one parallel_for's chunks, shared by the threads that work on it
  void run_in_slot(Job& job);
  void wake_sleepers();
  std::vector<std::thread> workers_;
  // One call at a time hands its job to the workers through the slot: a pointer and a
  // generation the polling workers see in one cache line, with the job on the caller's
  // stack. Other calls meanwhile (from several threads, or nested in a job) queue theirs.
  struct alignas(64) Slot {
    std::atomic<Job*> job{nullptr};
    std::atomic<int64_t> generation{0};  // bumped for each job put in the slot
    std::atomic<int> users{0};           // workers that may still touch the slot's job
  } slot_;
  std::atomic<bool> slot_taken_{false};
  std::deque<std::shared_ptr<Job>> tasks_;  // one entry per worker and queued call
  std::atomic<int64_t> pending_{0};  // tasks_.size(), readable without the lock
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<int> sleepers_{0};  // workers waiting on cv_: only then is it notified
  bool stop_ = false;
};

// Hands out tasks [0, count), cut into `shares` contiguous shares: thread index i (see
// ThreadPool::thread_index) takes the tasks of share i first, in order, then what is left
// of the others'. Work split the same way in consecutive ops then finds its inputs where
// the same thread wrote them, in its own core's cache (on a VM whose two vCPUs sat on
// different CCDs, data written by one and read by the other was what 2 threads lost);
// a thread the machine slows down still leaves its tasks to the others. Which thread
// computes a task never changes what the task computes.
class ShareClaims {
 public:
  ShareClaims(int64_t count, int shares);
  int64_t claim();  // the next task of this thread, or -1 when none is left

 private:
  struct alignas(64) Share {  // a cache line each: the threads take from their own
    std::atomic<int64_t> next{0};
    int64_t end = 0;
  };
  std::unique_ptr<Share[]> shares_;
  int count_;
};

}  // namespace twinrt
