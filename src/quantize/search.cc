#include "quantize/search.h"

#include <algorithm>
#include <cmath>

namespace twinrt::quantize {

Result<SearchOutcome> sensitivity_search(const std::vector<std::string>& candidates, double target, int max_steps,
                                         const SearchHooks& hooks) {
  SearchOutcome out;
  auto score_step = [&](std::vector<std::string> kept) -> Status {
    ASSIGN_OR_RETURN(SearchScore score, hooks.score(std::set<std::string>(kept.begin(), kept.end())));
    out.steps.push_back({std::move(kept), std::move(score)});
    if (hooks.on_step) hooks.on_step(out.steps.back());
    const double accuracy = out.steps.back().score.accuracy;
    // A step must beat the best so far: at equal accuracy fewer nodes in float wins.
    if (accuracy > out.steps[out.chosen].score.accuracy) out.chosen = out.steps.size() - 1;
    out.met = accuracy >= target;
    if (out.met) out.chosen = out.steps.size() - 1;
    return Status::ok();
  };
  TRY(score_step({}));
  if (out.met) return out;
  for (size_t i = 0; i < candidates.size(); ++i) {
    ASSIGN_OR_RETURN(double s, hooks.sensitivity(candidates[i]));
    if (std::isnan(s)) s = INFINITY;  // an unmeasurable error ranks first (and keeps the sort well-defined)
    out.ranking.emplace_back(candidates[i], s);
    if (hooks.ranking_progress) hooks.ranking_progress(i + 1, candidates.size());
  }
  std::stable_sort(out.ranking.begin(), out.ranking.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  const size_t steps = std::min(candidates.size(), static_cast<size_t>(std::max(max_steps, 0)));
  std::vector<std::string> kept;
  for (size_t k = 0; k < steps && !out.met; ++k) {
    kept.push_back(out.ranking[k].first);
    TRY(score_step(kept));
  }
  return out;
}

}  // namespace twinrt::quantize
