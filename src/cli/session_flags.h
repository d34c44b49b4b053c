// Flags shared by the commands that create a Session (run, bench): --mode, --isa,
// --optimization, --threads, --dim NAME=VALUE, --lenient.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "twinrt/session.h"

namespace twinrt::cli {

struct SessionFlags {
  std::string mode = "default";
  std::string isa = "auto";
  std::string optimization = "all";
  int threads = 1;
  std::vector<std::string> dims;  // NAME=VALUE
  bool lenient = false;
};

void add_session_flags(CLI::App* command, SessionFlags& flags);
// Validates the flags (naming the flag at fault) and builds the options.
Result<SessionOptions> to_session_options(const SessionFlags& flags);
// Prints what the session accepted with a warning (--lenient).
void warn_about(const Session& session);

// Splits "NAME=VALUE" given to `flag`; both sides must be non-empty.
Result<std::pair<std::string, std::string>> split_assignment(const std::string& arg, const std::string& flag);
// A whole decimal integer (no sign unless allow_negative, no trailing text).
Result<int64_t> parse_integer(const std::string& text, const std::string& what, bool allow_negative);

}  // namespace twinrt::cli
