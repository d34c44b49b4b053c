// Runs a compiled Subgraph: one frame of value slots per call, so concurrent runs of the
// same plan share nothing mutable.
#pragma once

#include <vector>

#include "runtime/arena.h"
#include "runtime/plan.h"
#include "runtime/thread_pool.h"

namespace twinrt {

struct ExecOptions {
  Mode mode = Mode::kDefault;
  ThreadPool* pool = nullptr;
  // The top-level graph's outputs go to this run's arena (arena.h), or are recorded to plan
  // one; nested graphs never see either.
  ArenaRun* arena = nullptr;
  ArenaRecorder* recorder = nullptr;
  // When set (one entry per step of the top-level graph), each step's milliseconds are
  // added to its entry.
  std::vector<double>* step_ms = nullptr;
};

// `inputs` follow g.input_slots, `outer` follows g.outer_names; `overrides` replace
// overridable initializers (slot, value). Returns values in g.output_slots order.
Result<std::vector<Value>> execute(const Subgraph& g, std::vector<Value> inputs,
                                   std::vector<Value> outer, const ExecOptions& options,
                                   std::vector<std::pair<int, Value>> overrides = {});

// Runs one kernel on explicit values (used by the executor and by constant folding).
// `outputs` must have one entry per node output; omitted outputs are null.
class KernelContext final : public RunContext {
 public:
  KernelContext(std::vector<const Value*> inputs, std::vector<Value*> outputs,
                std::vector<std::pair<std::string, const Value*>> implicit, const ExecOptions& options)
      : inputs_(std::move(inputs)), outputs_(std::move(outputs)), implicit_(std::move(implicit)),
        options_(options) {}

  size_t num_inputs() const override { return inputs_.size(); }
  const Value* input_value(size_t i) const override;
  size_t num_outputs() const override { return outputs_.size(); }
  bool output_requested(size_t i) const override { return i < outputs_.size() && outputs_[i]; }
  Result<Tensor*> output(size_t i, DataType dtype, std::vector<int64_t> shape) override;
  Result<Tensor*> output_for_overwrite(size_t i, DataType dtype, std::vector<int64_t> shape) override;
  void set_output(size_t i, Value v) override { out_slot(i) = std::move(v); }
  Mode mode() const override { return options_.mode; }
  ThreadPool& pool() const override { return *options_.pool; }
  Result<std::vector<Value>> run_subgraph(const Subgraph& g, std::vector<Value> inputs) override;
  void set_step(int step) { step_ = step; }

 private:
  Value& out_slot(size_t i) { return output_requested(i) ? *outputs_[i] : scratch_; }
  Tensor* place_output(size_t i, Tensor t);
  Result<Tensor*> allocate_output(size_t i, DataType dtype, std::vector<int64_t> shape, bool zero);
  std::vector<const Value*> inputs_;
  std::vector<Value*> outputs_;
  std::vector<std::pair<std::string, const Value*>> implicit_;
  const ExecOptions& options_;
  Value scratch_;  // writes to omitted outputs land here and are dropped
  int step_ = -1;  // index of the running step in its graph (for the arena)
};

}  // namespace twinrt
