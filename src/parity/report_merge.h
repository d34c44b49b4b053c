// Reports of several runs over disjoint cases (shards of a sweep: `twinrt compare --shard
// I/N --json part.json`, twinrt.parity.sweep) merged into one, as if one run had seen
// every case: metrics merged exactly as cases are within one run (merge_metrics), verdicts
// evaluated again under the policy.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "parity/policy.h"
#include "parity/report.h"

namespace twinrt::parity {

// A compare report read back from its JSON (docs/parity-report-schema.md). Reads what a
// merge needs: the header, engines and comparisons with their metrics; layers and the
// preprocess check are left out. `source` names the file in errors.
Result<Report> report_from_json(const nlohmann::json& document, const std::string& source);

// Parts must come from the same compare (models, engines, baseline, outputs). `policies`
// judges the merged metrics; null: the built-in policy each comparison names. The worst
// cases are the `keep` worst of every part's (each part keeps its own worst, so they are
// the whole run's), the case verdict counts their sums.
Result<Report> merge_reports(const std::vector<Report>& parts, const PolicySet* policies,
                             size_t keep = kWorstCases);

}  // namespace twinrt::parity
