// `twinrt report merge PART.json... [--json OUT] [--html OUT] [--policy P]`: the compare
// reports of shards (`twinrt compare --shard I/N --json part.json`) as one report over
// every case. Exit 0 when the merged report passes, 1 when it fails, 2 on bad input.
#include <cstdio>

#include "cli/command.h"
#include "cli/exit_status.h"
#include "io/file_io.h"
#include "onnx/loader.h"
#include "parity/report_merge.h"

namespace twinrt::cli {
namespace {

struct MergeFlags {
  std::vector<std::string> parts;
  std::string json_path, html_path, policy;
};

Result<parity::Report> read_report(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, onnx::read_file(path));
  nlohmann::json document = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) return invalid_argument(path + ": not valid JSON");
  return parity::report_from_json(document, path);
}

Result<parity::Report> merge(const MergeFlags& f) {
  std::vector<parity::Report> parts;
  for (const std::string& path : f.parts) {
    ASSIGN_OR_RETURN(parity::Report part, read_report(path));
    parts.push_back(std::move(part));
  }
  std::optional<parity::PolicySet> policies;
  if (f.policy.size() > 5 && f.policy.compare(f.policy.size() - 5, 5, ".json") == 0) {
    ASSIGN_OR_RETURN(policies, parity::load_policy_file(f.policy));
  } else if (!f.policy.empty()) {
    auto p = parity::builtin_policy(f.policy);
    if (!p) return invalid_argument("--policy: " + p.status().message());
    policies = parity::single_policy(std::move(*p));
  }
  return parity::merge_reports(parts, policies ? &*policies : nullptr);
}

int run_merge(const MergeFlags& f) {
  auto report = merge(f);
  if (!report) return report_error(report.status());
  std::fputs(parity::render_terminal(*report).c_str(), stdout);
  if (!f.json_path.empty())
    if (Status s = io::write_file_bytes(f.json_path, parity::to_json(*report).dump(2) + "\n"); !s.is_ok())
      return report_error(s);
  if (!f.html_path.empty())
    if (Status s = io::write_file_bytes(f.html_path, parity::render_html(*report)); !s.is_ok()) return report_error(s);
  return report->passed ? kExitOk : kExitFailure;
}

}  // namespace

Command add_report_command(CLI::App& root) {
  static MergeFlags flags;
  CLI::App* cmd = root.add_subcommand("report", "work with parity reports");
  cmd->require_subcommand(1);
  CLI::App* merge_cmd = cmd->add_subcommand("merge", "merge the --json reports of `twinrt compare --shard I/N` runs");
  merge_cmd->add_option("parts", flags.parts, "the parts' JSON reports")->required();
  merge_cmd->add_option("--json", flags.json_path, "write the merged report as JSON to this file");
  merge_cmd->add_option("--html", flags.html_path, "write the merged report as a self-contained HTML page");
  merge_cmd->add_option("--policy", flags.policy,
                        "judge the merged metrics by this policy (default: the one each part names)");
  return {cmd, [] { return run_merge(flags); }};
}

}  // namespace twinrt::cli
