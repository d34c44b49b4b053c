// A pipeline over many cases with every model stage on each engine, as a compare report
// (parity/report.h): what twinrt.parity.sweep runs per shard for a pipeline file, so shards
// merge, rank their worst cases and render like a model's compare.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "parity/inputs.h"
#include "parity/policy.h"
#include "parity/report.h"
#include "pipeline/pipeline.h"
#include "pipeline/value.h"

namespace twinrt::cli {

// One engine's results for every case, or why it has none.
struct PipelineRuns {
  parity::EngineEntry entry;  // entry.ok false: `status` says why
  Status status;
  std::vector<pipeline::RunResult> per_case;
  std::vector<std::string> outputs;  // the pipeline's declared outputs
};

// The pipeline on every case with each model stage on `engine`, each case from a fresh state.
PipelineRuns run_pipeline_cases(const std::string& file, const std::string& engine,
                                const std::vector<parity::InputCase>& cases);

// One value of one case: its items compared one by one and merged; nullopt when both
// lists are empty (nothing to compare). Items of another count or shape give metrics
// with shape_mismatches 1 and nothing else measured.
Result<std::optional<parity::TensorMetrics>> compare_pipeline_value(const pipeline::PipelineValue& reference,
                                                                    const pipeline::PipelineValue& test,
                                                                    const parity::CompareOptions& options);

// Every value a stage wrote, in execution order, on each engine against the first's: the
// pipeline's outputs under their own names, other values as "stage/value"; a list value's
// items are compared one by one (a different item count or shape is a shape mismatch,
// which fails). Each case runs from a fresh state. cases[i] is case first_case + i of the
// whole set; an engine that fails to load or run a case lands in the report.
// The report of runs made by run_pipeline_cases (the baseline first) on `cases`.
Result<parity::Report> pipeline_report(const std::string& file, const std::vector<parity::InputCase>& cases,
                                       const std::vector<PipelineRuns>& runs, const parity::PolicySet& policies,
                                       int64_t first_case, size_t keep = parity::kWorstCases);

Result<parity::Report> compare_pipeline_cases(const std::string& file, const std::vector<std::string>& engines,
                                              const std::vector<parity::InputCase>& cases,
                                              const parity::PolicySet& policies, int64_t first_case,
                                              size_t keep = parity::kWorstCases);

}  // namespace twinrt::cli
