// Runs a pipeline file: model stages and built-in glue steps in dependency order, a
// stage mapped over a list once per item (model stages batched by shape), every value
// checked against its contract right after the stage that wrote it. See docs/pipelines.md.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/model_runner.h"
#include "pipeline/pipeline_spec.h"
#include "pipeline/step.h"

namespace twinrt::pipeline {

struct PipelineOptions {
  std::string engine;  // when set, every model stage runs on this engine
  ModelRunnerFactory runner_factory = make_session_runner;
  // Overrides the file's "parallel". The WebAssembly build always runs stages one after
  // another, whatever either says.
  std::optional<bool> parallel;
};

struct StageRecord {
  std::string stage;
  double ms = 0;        // wall time of this stage in this run (overlaps other stages of its wave when parallel)
  int model_calls = 0;  // model stages: how many runs (batches) it took
  ValueMap outputs;     // what the stage wrote, by value name
};

struct RunResult {
  ValueMap outputs;                 // the pipeline's declared outputs
  std::vector<StageRecord> stages;  // in spec().stages order (waves, then file order)
  double ms = 0;                    // wall time of the whole run
};

class Pipeline {
 public:
  static Result<std::unique_ptr<Pipeline>> create(PipelineSpec spec, const PipelineOptions& options);
  static Result<std::unique_ptr<Pipeline>> load(const std::string& path, const PipelineOptions& options);
  ~Pipeline();

  const PipelineSpec& spec() const { return spec_; }
  // Model load (or step setup) time per stage, in ms, in spec().stages order.
  const std::vector<double>& load_ms() const { return load_ms_; }
  std::string engine_of(const StageSpec& stage) const;
  // Whether the stages of a wave run concurrently.
  bool parallel() const { return parallel_; }

  // `inputs` must give every pipeline input, except state inputs (docs/pipelines.md,
  // "State"), which default to what the previous run left. Errors name the stage (and for contracts the
  // value, what was expected and what came).
  Result<RunResult> run(const ValueMap& inputs);
  // Forgets the carried state: the next run starts from zeros.
  void reset_state() { carried_.clear(); }

 private:
  struct Stage;
  Pipeline() = default;
  Result<StageRecord> run_stage(Stage& stage, const ValueMap& values);
  // Runs stages_[begin, end) (on threads of their own when more than one) and returns
  // their records in that order.
  std::vector<Result<StageRecord>> run_group(size_t begin, size_t end, const ValueMap& values);
  Result<ValueMap> run_model(Stage& stage, const ValueMap& inputs, int& calls);

  PipelineSpec spec_;
  std::string engine_override_;
  bool parallel_ = false;
  std::vector<std::unique_ptr<Stage>> stages_;
  std::vector<double> load_ms_;
  ValueMap carried_;  // state input -> its value for the next run
};

}  // namespace twinrt::pipeline
