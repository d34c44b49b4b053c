// Flags shared by the commands that create a Session (run, bench): --mode, --isa,
// --optimization, --threads, --dim NAME=VALUE, --lenient, and the resource limits
// (--max-tensor-bytes, --max-memory; also on inspect, compare and localize).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "ir/resource_limits.h"
#include "twinrt/session.h"

namespace twinrt::cli {

// SIZE: bytes, or with K, M, G or T (powers of 1024); empty = the default.
struct LimitFlags {
  std::string max_tensor_bytes;
  std::string max_memory;
};

void add_limit_flags(CLI::App* command, LimitFlags& flags);
// Sets the process's limits (twinrt/limits.h) from the flags, the default where a flag is
// absent; the sessions and files loaded afterwards use them.
Status apply_limit_flags(const LimitFlags& flags);

struct SessionFlags {
  std::string mode = "default";
  std::string isa = "auto";
  std::string optimization = "all";
  int threads = 1;
  std::vector<std::string> dims;  // NAME=VALUE
  bool lenient = false;
  LimitFlags limits;
};

void add_session_flags(CLI::App* command, SessionFlags& flags);
// Validates the flags (naming the flag at fault) and builds the options; applies the limits.
Result<SessionOptions> to_session_options(const SessionFlags& flags);
// Prints what the session accepted with a warning (--lenient).
void warn_about(const Session& session);

// Splits "NAME=VALUE" given to `flag`; both sides must be non-empty.
Result<std::pair<std::string, std::string>> split_assignment(const std::string& arg, const std::string& flag);
// A whole decimal integer (no sign unless allow_negative, no trailing text).
Result<int64_t> parse_integer(const std::string& text, const std::string& what, bool allow_negative);

}  // namespace twinrt::cli
