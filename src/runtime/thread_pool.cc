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
// (ShareClaims), and how many are done. Queued once per worker, so that any of them can
// help; a worker that comes after the caller finished finds nothing left to claim.
struct ThreadPool::Job {
  Job(const std::function<void(int64_t, int64_t)>& fn, int64_t n, int64_t chunks, int threads)
      : fn(fn), n(n), chunks(chunks), step((n + chunks - 1) / chunks), claims(chunks, threads) {}
  void work() {
    for (int64_t c; (c = claims.claim()) >= 0;) {
      fn(c * step, std::min(n, (c + 1) * step));
      if (done.fetch_add(1) + 1 == chunks) {
        std::lock_guard<std::mutex> lock(mu);
        cv.notify_all();
      }
    }
  }
  const std::function<void(int64_t, int64_t)>& fn;
  const int64_t n, chunks, step;
  ShareClaims claims;
  std::atomic<int64_t> done{0};
  std::mutex mu;
  std::condition_variable cv;
};

void ThreadPool::worker_loop() {
  for (;;) {
    spin_until([this] { return pending_.load(std::memory_order_acquire) > 0; });
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      ++sleepers_;
      cv_.wait(lock, [this] { return stop_ || !tasks_.empty(); });
      --sleepers_;
      if (stop_ && tasks_.empty()) return;
      job = std::move(tasks_.front());
      tasks_.pop_front();
      pending_.fetch_sub(1, std::memory_order_relaxed);
    }
    job->work();
  }
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
  auto job = std::make_shared<Job>(fn, n, chunks, size());
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 0; i < workers_.size(); ++i) tasks_.push_back(job);
    pending_.fetch_add(static_cast<int64_t>(workers_.size()), std::memory_order_release);
    wake = sleepers_ > 0;
  }
  // Workers still polling see pending_; notifying them too would only move the condition
  // variable's line between the cores.
  if (wake) cv_.notify_all();
  job->work();
  spin_until([&] { return job->done.load(std::memory_order_acquire) == chunks; });
  std::unique_lock<std::mutex> lock(job->mu);
  job->cv.wait(lock, [&] { return job->done.load() == chunks; });
}

}  // namespace twinrt
