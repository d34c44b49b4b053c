#include "runtime/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <system_error>

namespace twinrt {
namespace {

// How long a thread polls before sleeping on a condition variable: the next parallel_for
// of a model usually comes within microseconds, and a sleeping thread takes tens of them
// to wake (that made two threads slower than one on models with many small ops).
// WebAssembly has no pause instruction, so a poll there is a few nanoseconds instead of
// tens, and a wake-up in a browser (Atomics.notify to a Web Worker) costs more.
#if defined(__EMSCRIPTEN__)
constexpr int kSpins = 100000;
#else
constexpr int kSpins = 2000;
#endif

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

template <class Ready>
void spin_until(Ready ready) {
  for (int i = 0; i < kSpins && !ready(); ++i) cpu_relax();
}

thread_local int tl_thread_index = 0;

}  // namespace

Status ThreadPool::start_workers(int threads) {
  for (int i = 1; i < threads; ++i) {
    try {
      workers_.emplace_back([this, i] {
        tl_thread_index = i;
        worker_loop();
      });
    } catch (const std::system_error& e) {
      return Status(StatusCode::kOutOfMemory, "cannot start thread " + std::to_string(i + 1) + " of " +
                                                  std::to_string(threads) + ": " + e.what());
    }
  }
  return Status::ok();
}

ThreadPool::ThreadPool(int threads) { (void)start_workers(threads); }

int ThreadPool::thread_index() { return tl_thread_index; }

ShareClaims::ShareClaims(int64_t count, int shares)
    : shares_(new Share[static_cast<size_t>(std::max(shares, 1))]), count_(std::max(shares, 1)) {
  for (int i = 0; i < count_; ++i) {
    shares_[i].next.store(count * i / count_, std::memory_order_relaxed);
    shares_[i].end = count * (i + 1) / count_;
  }
}

int64_t ShareClaims::claim() {
  const int own = ThreadPool::thread_index() % count_;
  for (int k = 0; k < count_; ++k) {
    Share& share = shares_[(own + k) % count_];
    if (share.next.load(std::memory_order_relaxed) >= share.end) continue;
    const int64_t task = share.next.fetch_add(1, std::memory_order_relaxed);
    if (task < share.end) return task;
  }
  return -1;
}

Result<std::unique_ptr<ThreadPool>> ThreadPool::create(int threads) {
  if (threads < 1 || threads > kMaxThreads)
    return invalid_argument("thread count must be between 1 and " + std::to_string(kMaxThreads) + ", got " +
                            std::to_string(threads));
  std::unique_ptr<ThreadPool> pool(new ThreadPool());
  // On failure the destructor stops and joins the workers already started.
  TRY(pool->start_workers(threads));
  return pool;
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& w : workers_) w.join();
}

// Shared state of one parallel_for: the chunks to claim, each thread its own share first
// (ShareClaims), and how many are done. A worker that comes after the caller finished finds
// nothing left to claim.
struct ThreadPool::Job {
  Job(const std::function<void(int64_t, int64_t)>& fn, int64_t n, int64_t chunks, int threads)
      : fn(fn), n(n), chunks(chunks), step((n + chunks - 1) / chunks), claims(chunks, threads) {}
  void work() {
    for (int64_t c; (c = claims.claim()) >= 0;) {
      fn(c * step, std::min(n, (c + 1) * step));
      // The caller's mutex only when it sleeps: taken on every job, its line crossed
      // between the cores each time. (done before caller_sleeps here, caller_sleeps before
      // done in wait(): one of the two sees the other's store.)
      if (done.fetch_add(1) + 1 == chunks && caller_sleeps.load()) {
        std::lock_guard<std::mutex> lock(mu);
        cv.notify_all();
      }
    }
  }
  bool finished() const { return done.load(std::memory_order_acquire) == chunks; }
  // The caller, once its own chunks are done: polls, then sleeps.
  void wait() {
    spin_until([&] { return finished(); });
    if (finished()) return;
    std::unique_lock<std::mutex> lock(mu);
    caller_sleeps.store(true);
    cv.wait(lock, [&] { return done.load() == chunks; });
  }
  const std::function<void(int64_t, int64_t)>& fn;
  const int64_t n, chunks, step;
  ShareClaims claims;
  std::atomic<int64_t> done{0};
  std::atomic<bool> caller_sleeps{false};
  std::mutex mu;
  std::condition_variable cv;
};

void ThreadPool::worker_loop() {
  int64_t seen = 0;  // the slot's generation this worker last looked at
  const auto slot_changed = [&] { return slot_.generation.load() != seen; };
  for (;;) {
    spin_until([&] { return slot_changed() || pending_.load(std::memory_order_acquire) > 0; });
    if (slot_changed()) {
      seen = slot_.generation.load();
      // users before job, as the caller clears job before it reads users: either it waits
      // for this worker, or this worker finds no job.
      slot_.users.fetch_add(1);
      if (Job* job = slot_.job.load()) job->work();
      slot_.users.fetch_sub(1, std::memory_order_release);
      continue;
    }
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      sleepers_.fetch_add(1);  // before the slot's generation is read again (wake_sleepers)
      cv_.wait(lock, [&] { return stop_ || !tasks_.empty() || slot_changed(); });
      sleepers_.fetch_sub(1);
      if (stop_ && tasks_.empty()) return;
      if (tasks_.empty()) continue;  // the slot's job, taken above
      job = std::move(tasks_.front());
      tasks_.pop_front();
      pending_.fetch_sub(1, std::memory_order_relaxed);
    }
    job->work();
  }
}

// After a job was published: workers still polling see it; sleeping ones are notified
// (notifying the others too would only move the condition variable's line between the
// cores). A worker counts itself a sleeper before it checks for work under mu_, so either it
// sees the job or it is counted here, and taking mu_ waits until it sleeps.
void ThreadPool::wake_sleepers() {
  if (sleepers_.load() == 0) return;
  { std::lock_guard<std::mutex> lock(mu_); }
  cv_.notify_all();
}

// The job through the slot, which this call holds (slot_taken_): the workers that poll find
// it in the slot's line (a queued job cost a lock, a queue entry and a shared pointer each
// crossing between the cores: 2 us a call against 0.75 for a bare round trip on the Zen 5 VM).
void ThreadPool::run_in_slot(Job& job) {
  slot_.job.store(&job);
  slot_.generation.fetch_add(1);
  wake_sleepers();
  job.work();
  job.wait();
  slot_.job.store(nullptr);
  // A worker still leaving the job; yielding after a while, in case it shares this core.
  spin_until([&] { return slot_.users.load() == 0; });
  while (slot_.users.load() != 0) std::this_thread::yield();
  slot_taken_.store(false, std::memory_order_release);
}

void ThreadPool::parallel_for(int64_t n, int64_t grain,
                              const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  int64_t chunks = std::min<int64_t>((n + grain - 1) / grain, int64_t{size()} * 4);
  if (workers_.empty() || chunks <= 1) {
    fn(0, n);
    return;
  }
  if (!slot_taken_.exchange(true, std::memory_order_acquire)) {
    Job job(fn, n, chunks, size());
    run_in_slot(job);
    return;
  }
  auto job = std::make_shared<Job>(fn, n, chunks, size());
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 0; i < workers_.size(); ++i) tasks_.push_back(job);
    pending_.fetch_add(static_cast<int64_t>(workers_.size()), std::memory_order_release);
  }
  wake_sleepers();
  job->work();
  job->wait();
}

}  // namespace twinrt
