// Runs a pipeline file: model stages and built-in glue steps in dependency order, a
// stage mapped over a list once per item (model stages batched by shape), every value
// checked against its contract right after the stage that wrote it. See docs/pipelines.md.
// A host (twinrt-web's WebGPU provider) can run some model stages itself: the run stops at
// such a stage with its model calls (start/resume), and everything else stays here.
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
  // Model stages (by name) that the caller runs itself through start()/resume(): nothing
  // is loaded for them here. With any, stages run one after another.
  std::vector<std::string> host_stages;
};

// A host stage's model runs, batched as for any model stage: one feed map per call, and
// the model outputs the stage keeps.
struct HostRequest {
  std::string stage;
  std::vector<TensorMap> calls;
  std::vector<std::string> outputs;
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

// Where a stepwise run stands: stopped at a host stage (request), or finished (result).
struct RunProgress {
  std::optional<HostRequest> request;
  RunResult result;
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
  // Fails when the pipeline has host stages (use start()).
  Result<RunResult> run(const ValueMap& inputs);
  // The same run, stopping at each host stage: resume() takes that stage's model outputs,
  // one map per call of the request, checks them as any stage's and goes on. start()
  // drops an unfinished run; an error ends the run.
  Result<RunProgress> start(const ValueMap& inputs);
  Result<RunProgress> resume(std::vector<TensorMap> outputs);
  // Forgets the carried state: the next run starts from zeros.
  void reset_state() { carried_.clear(); }

 private:
  struct Stage;
  struct ModelPlan;
  struct ActiveRun;
  Pipeline() = default;
  Result<ActiveRun> begin(const ValueMap& inputs);
  // Runs stages from run.next until a host stage (its request) or the end.
  Result<RunProgress> advance(ActiveRun& run);
  // Checks a stage's record against the contracts and adds its values to the run.
  Status accept(ActiveRun& run, size_t stage, Result<StageRecord> record);
  Result<RunProgress> guard(Result<RunProgress> progress);
  Result<StageRecord> run_stage(Stage& stage, const ValueMap& values);
  // Runs stages_[begin, end) (on threads of their own when more than one) and returns
  // their records in that order.
  std::vector<Result<StageRecord>> run_group(size_t begin, size_t end, const ValueMap& values);
  Result<ValueMap> run_model(Stage& stage, const ValueMap& inputs, int& calls);
  Result<ModelPlan> plan_model(const StageSpec& s, const ValueMap& inputs) const;
  Result<ValueMap> gather_model(const StageSpec& s, const ModelPlan& plan, std::vector<TensorMap> outputs) const;

  PipelineSpec spec_;
  std::string engine_override_;
  bool parallel_ = false;
  std::vector<std::unique_ptr<Stage>> stages_;
  std::vector<double> load_ms_;
  ValueMap carried_;  // state input -> its value for the next run
  std::unique_ptr<ActiveRun> active_;  // a stepwise run stopped at a host stage
};

}  // namespace twinrt::pipeline
