// A progress bar on stderr for long commands (localize, quantize): redrawn in place on a
// terminal; when stderr is not one, only with --progress, one line per update.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace twinrt::cli {

// (done, total, detail): "LABEL [#####.....] DETAIL". Null when no bar should be shown
// (stderr is not a terminal and `forced` is false), so callers can pass it on as is.
using ProgressBar = std::function<void(size_t, size_t, const std::string&)>;
ProgressBar make_progress_bar(const std::string& label, bool forced);

}  // namespace twinrt::cli
