#pragma once

#include <memory>
#include <mutex>

#include "ir/ir.h"
#include "ir/resource_limits.h"
#include "runtime/arena.h"
#include "runtime/plan.h"
#include "runtime/thread_pool.h"
#include "twinrt/session.h"

namespace twinrt {

class SessionImpl {
 public:
  // `owns_model_bytes`: nothing but this session views the bytes the model was read into
  // (Session::load), so bytes of weights kept only packed may be released.
  static Result<std::unique_ptr<SessionImpl>> create(ir::Model model, const SessionOptions& options,
                                                     bool owns_model_bytes = false);

  Result<std::map<std::string, Value>> run(const std::map<std::string, Value>& feeds) const;

  // Initializers whose bytes were released (owns_model_bytes) must not be read.
  const ir::Model& model() const { return model_; }
  const Subgraph& plan() const { return *plan_; }
  const SessionOptions& options() const { return options_; }
  const std::vector<IoInfo>& inputs() const { return inputs_; }
  const std::vector<IoInfo>& outputs() const { return outputs_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  const ResourceLimits& limits() const { return limits_; }
  SessionProfile profile() const;

 private:
  ir::Model model_;
  SessionOptions options_;
  std::shared_ptr<const Subgraph> plan_;
  std::unique_ptr<ThreadPool> pool_;
  std::vector<IoInfo> inputs_, outputs_;
  std::vector<std::string> warnings_;
  ResourceLimits limits_;
  uint64_t weights_bytes_ = 0;
  // Arena plans and buffers by input shapes (null: every run allocates on the heap).
  std::unique_ptr<ArenaCache> arena_;
  // SessionOptions::profile: milliseconds per step of the plan, summed over runs.
  mutable std::mutex profile_mutex_;
  mutable std::vector<double> step_ms_;
  mutable int profiled_runs_ = 0;
};

IoInfo io_info(const ir::ValueInfo& v);

// Replaces calls to model-local functions with their bodies (recursively, in nested
// graphs too), binding attribute references.
Status inline_functions(ir::Model& model);

}  // namespace twinrt
