#include "runtime/whole_tasks.h"

#include <vector>

namespace twinrt {

Status run_whole_tasks(ThreadPool& pool, int64_t count, const std::function<Status(ThreadPool&, int64_t)>& fn) {
  std::vector<Status> status(static_cast<size_t>(count));
  pool.parallel_for(count, 1, [&](int64_t begin, int64_t end) {
    ThreadPool serial(1);
    for (int64_t i = begin; i < end; ++i) status[static_cast<size_t>(i)] = fn(serial, i);
  });
  for (Status& st : status) TRY(st);
  return Status::ok();
}

}  // namespace twinrt
