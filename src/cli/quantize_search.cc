#include "cli/quantize_search.h"

#include <algorithm>
#include <cstdio>

#include "io/temp_dir.h"
#include "onnx/writer.h"
#include "parity/comparison.h"

namespace twinrt::cli {
namespace {

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}

class SearchRunner {
 public:
  SearchRunner(const SearchRequest& r, const std::vector<std::string>& candidates, const io::TempDir& dir)
      : r_(r), candidates_(candidates), dir_(dir) {
    for (const auto& o : r.float_model->graph->outputs) outputs_.push_back(o.name);
  }

  Status run_float() {
    float_run_ = parity::run_cases_on("twinrt", engines::EngineOptions{}, "float", r_.float_model_path, *r_.inputs,
                                      outputs_);
    if (!float_run_.entry.ok) return invalid_argument("the float model does not run: " + float_run_.entry.error);
    return Status::ok();
  }

  // The comparisons of the model quantized with `kept_float` (and the user's exclusions)
  // left in float.
  Result<std::vector<parity::OutputComparison>> compare_variant(const std::set<std::string>& kept_float) {
    ir::Model model = *r_.float_model;
    quantize::QuantizeOptions options = r_.options;
    options.exclude_nodes.insert(kept_float.begin(), kept_float.end());
    TRY(quantize::write_static_qdq(model, options, r_.ranges).status());
    const std::string path = dir_.file("variant.onnx");
    TRY(onnx::write_model_file(model, path));
    parity::EngineRun run = parity::run_cases_on("twinrt", engines::EngineOptions{}, "int8", path, *r_.inputs, outputs_);
    if (!run.entry.ok) return invalid_argument("a quantized variant does not run: " + run.entry.error);
    return parity::compare_runs(float_run_, run, outputs_, r_.policies, {});
  }

  Result<quantize::SearchScore> score(const std::set<std::string>& kept_float) {
    ASSIGN_OR_RETURN(auto comparisons, compare_variant(kept_float));
    const size_t cases = r_.inputs->cases.size();
    size_t passed = 0;
    for (size_t c = 0; c < cases; ++c) {
      bool all = true;
      for (const auto& cmp : comparisons) all &= c < cmp.per_case.size() && cmp.per_case[c].passed;
      passed += all;
    }
    quantize::SearchScore s;
    s.accuracy = cases ? static_cast<double>(passed) / static_cast<double>(cases) : 0.0;
    s.detail = std::to_string(passed) + "/" + std::to_string(cases) + " cases pass";
    for (const auto& cmp : comparisons) s.detail += "; " + cmp.output + ": " + cmp.verdict.summary;
    return s;
  }

  Result<double> sensitivity(const std::string& node) {
    std::set<std::string> others;
    for (const std::string& c : candidates_)
      if (c != node) others.insert(c);
    ASSIGN_OR_RETURN(auto comparisons, compare_variant(others));
    double worst = 0;
    for (const auto& cmp : comparisons) worst = std::max(worst, cmp.metrics.rmse_relative);
    return worst;
  }

 private:
  const SearchRequest& r_;
  const std::vector<std::string>& candidates_;
  const io::TempDir& dir_;
  std::vector<std::string> outputs_;
  parity::EngineRun float_run_;
};

void print_summary(const quantize::SearchOutcome& out, double target,
                   const std::vector<std::pair<std::string, double>>& ranking) {
  if (!ranking.empty()) {
    std::printf("sensitivity (output rmse_relative with only that node quantized), largest first:");
    for (size_t i = 0; i < ranking.size() && i < 10; ++i)
      std::printf("%s %s %.3g", i ? "," : "", ranking[i].first.c_str(), ranking[i].second);
    std::printf("%s\n", ranking.size() > 10 ? ", ..." : "");
  }
  const quantize::SearchStep& chosen = out.steps[out.chosen];
  std::printf("search: target %.4g %s after %zu step(s); accuracy %.4g with %zu node(s) in float\n", target,
              out.met ? "met" : "NOT met", out.steps.size() - 1, chosen.score.accuracy, chosen.kept_float.size());
  for (const std::string& node : chosen.kept_float) {
    auto it = std::find_if(ranking.begin(), ranking.end(), [&](const auto& r) { return r.first == node; });
    const size_t rank = static_cast<size_t>(it - ranking.begin()) + 1;
    std::printf("kept in float by the search: '%s': sensitivity rank %zu of %zu (alone, output rmse_relative %.3g)\n",
                node.c_str(), rank, ranking.size(), it == ranking.end() ? 0.0 : it->second);
  }
}

}  // namespace

Result<quantize::SearchOutcome> run_sensitivity_search(const SearchRequest& request,
                                                       const std::vector<std::string>& candidates) {
  ASSIGN_OR_RETURN(auto dir, io::TempDir::create("twinrt-quantize-search"));
  SearchRunner runner(request, candidates, *dir);
  TRY(runner.run_float());
  quantize::SearchHooks hooks;
  hooks.score = [&](const std::set<std::string>& kept) { return runner.score(kept); };
  hooks.sensitivity = [&](const std::string& node) { return runner.sensitivity(node); };
  hooks.on_step = [&](const quantize::SearchStep& step) {
    std::printf("search step %zu: in float: %s; accuracy %.4g (%s)\n", step.kept_float.size(),
                join(step.kept_float).c_str(), step.score.accuracy, step.score.detail.c_str());
    std::fflush(stdout);
  };
  if (request.progress)
    hooks.ranking_progress = [&](size_t done, size_t total) {
      request.progress(done, total, "sensitivity " + std::to_string(done) + "/" + std::to_string(total) + " nodes");
    };
  ASSIGN_OR_RETURN(quantize::SearchOutcome out,
                   quantize::sensitivity_search(candidates, request.target, request.max_steps, hooks));
  print_summary(out, request.target, out.ranking);
  return out;
}

}  // namespace twinrt::cli
