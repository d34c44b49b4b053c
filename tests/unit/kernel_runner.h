// Runs one created kernel on explicit values through the runtime's own KernelContext,
// as the executor does; shared by the single-op test harnesses.
#pragma once

#include <vector>

#include "runtime/execute.h"
#include "runtime/thread_pool.h"

namespace twinrt::testing {

// `present[i]` false marks an omitted optional input. Returns one value per output.
inline Result<std::vector<Value>> run_kernel(const OpKernel& kernel, const std::vector<Value>& inputs,
                                             const std::vector<bool>& present, size_t num_outputs,
                                             Mode mode, int threads) {
  ThreadPool pool(threads);
  ExecOptions options{mode, &pool};
  std::vector<const Value*> in;
  for (size_t i = 0; i < inputs.size(); ++i) in.push_back(present[i] ? &inputs[i] : nullptr);
  std::vector<Value> results(num_outputs);
  std::vector<Value*> out;
  for (Value& r : results) out.push_back(&r);
  KernelContext ctx(std::move(in), std::move(out), {}, options);
  TRY(kernel.run(ctx));
  return results;
}

}  // namespace twinrt::testing
