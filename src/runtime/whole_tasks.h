// Tasks that each run whole on one thread: where a split of every task over the threads
// would wait for all of them at every step, and each step would read what the other threads
// wrote in the step before.
#pragma once

#include <cstdint>
#include <functional>

#include "runtime/thread_pool.h"
#include "twinrt/status.h"

namespace twinrt {

// Calls fn(serial, i) for every i in [0, count) on the threads of pool, each task whole on
// one thread; serial is a one-thread pool for the task's own loops. Every task runs, and the
// result is the first failure in task order (the same whichever thread failed first).
Status run_whole_tasks(ThreadPool& pool, int64_t count, const std::function<Status(ThreadPool&, int64_t)>& fn);

}  // namespace twinrt
