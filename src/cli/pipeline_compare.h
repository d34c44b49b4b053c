// `twinrt pipeline compare PIPE --engines A,B,...`: the pipeline run with every model stage
// on each engine; every stage's values compared with the first engine's (parity metrics),
// then the final outputs: text equality and character error rate, box IoU. --json/--html
// write every value's comparison as a parity report, like `twinrt compare`'s.
#pragma once

#include <string>
#include <vector>

namespace twinrt::cli {

struct PipelineCompareFlags {
  std::string file;
  std::vector<std::string> inputs;  // NAME=FILE
  std::string engines;              // A,B,...: the first is the baseline
  std::string policy = "fp32";      // judges every value in the report
  std::string json_path, html_path; // the report (docs/parity-report-schema.md), when given
};

// Exit code: 0 when every final output agrees (same text, same box count with IoU >= 0.5),
// 1 when one differs, 2 on bad input.
int compare_pipeline(const PipelineCompareFlags& flags);

}  // namespace twinrt::cli
