// `twinrt pipeline compare PIPE --engines A,B,...`: the pipeline run with every model stage
// on each engine; every stage's values compared with the first engine's (parity metrics),
// then the final outputs: text equality and character error rate, box IoU.
#pragma once

#include <string>
#include <vector>

namespace twinrt::cli {

// Exit code: 0 when every final output agrees (same text, same box count with IoU >= 0.5),
// 1 when one differs, 2 on bad input.
int compare_pipeline(const std::string& file, const std::vector<std::string>& inputs, const std::string& engines);

}  // namespace twinrt::cli
