#include "cli/progress_bar.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace twinrt::cli {

ProgressBar make_progress_bar(const std::string& label, bool forced) {
  const bool tty = isatty(STDERR_FILENO);
  if (!tty && !forced) return nullptr;
  return [tty, label](size_t done, size_t total, const std::string& detail) {
    constexpr size_t kWidth = 30;
    const size_t filled = total ? kWidth * std::min(done, total) / total : kWidth;
    std::fprintf(stderr, "%s%s [%s%s] %s%s", tty ? "\r" : "", label.c_str(), std::string(filled, '#').c_str(),
                 std::string(kWidth - filled, '.').c_str(), detail.c_str(), tty && done < total ? "" : "\n");
    std::fflush(stderr);
  };
}

}  // namespace twinrt::cli
