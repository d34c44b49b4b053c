// Runs the inputs of a comparison on engines and compares their outputs with the
// baseline's under a policy: the engine-independent core of `twinrt compare`.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engines/engine.h"
#include "parity/inputs.h"
#include "parity/policy.h"
#include "parity/report.h"

namespace twinrt::parity {

// One engine's outputs for every case, or why it has none.
struct EngineRun {
  EngineEntry entry;
  std::vector<engines::TensorMap> per_case;  // empty when the engine failed
  StatusCode failure = StatusCode::kOk;      // kUnavailable: not installed; else load/run error
};

// Loads `model_path` on `engine` and runs every case, asking for `outputs` (empty = all).
// Never fails as a whole: an engine's error lands in the entry, as the engine worded it.
EngineRun run_cases(engines::Engine& engine, const std::string& label, const std::string& model_path,
                    const InputSet& inputs, const std::vector<std::string>& outputs);

// Creates the engine and runs the cases; a failure to create it is recorded the same way.
EngineRun run_cases_on(const std::string& engine_name, const engines::EngineOptions& options,
                       const std::string& label, const std::string& model_path, const InputSet& inputs,
                       const std::vector<std::string>& outputs);

// Every output of `test` against `baseline`, per case, merged over cases, judged by the
// policy for that output (each case also judged alone, in OutputComparison::per_case). `expected` (tensor name -> error of one float engine) is attached
// when present; the gap between two engines is expected to be up to twice that.
Result<std::vector<OutputComparison>> compare_runs(const EngineRun& baseline, const EngineRun& test,
                                                   const std::vector<std::string>& outputs,
                                                   const PolicySet& policies,
                                                   const std::map<std::string, ExpectedError>& expected);

// The report's worst cases (the `keep` with the largest max_abs over every comparison) and
// per-case verdict counts, from the comparisons' per_case; cases[i] is case number
// first_index + i of the whole set. A case passes when every engine ran and every
// comparison passed on it.
void rank_cases(Report& report, const std::vector<InputCase>& cases, int64_t first_index, size_t keep = kWorstCases);

}  // namespace twinrt::parity
