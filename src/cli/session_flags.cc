#include "cli/session_flags.h"

#include <charconv>

#include "cli/exit_status.h"
#include "runtime/thread_pool.h"

namespace twinrt::cli {

void add_session_flags(CLI::App* command, SessionFlags& flags) {
  command->add_option("--mode", flags.mode,
                      "default (fastest), exact (fast, bit-identical everywhere) or reference (float64 accumulation)")
      ->capture_default_str();
  command->add_option("--isa", flags.isa, "kernel tier: auto, avx512, avx2 or scalar (also $TWINRT_ISA)")
      ->capture_default_str();
  command->add_option("--optimization", flags.optimization,
                      "graph passes: none, basic (bit-preserving) or all (also value-changing, default mode only)")
      ->capture_default_str();
  command->add_option("--threads", flags.threads, "intra-op threads; 0 = all hardware threads")
      ->capture_default_str();
  command->add_option("--dim", flags.dims,
                      "value of a symbolic dimension, NAME=VALUE (repeatable); unnamed ones default to 1");
  command->add_flag("--lenient", flags.lenient,
                    "run models with attributes their op does not know (warning instead of error)");
  add_limit_flags(command, flags.limits);
}

void add_limit_flags(CLI::App* command, LimitFlags& flags) {
  const ResourceLimits defaults = default_resource_limits();
  command->add_option("--max-tensor-bytes", flags.max_tensor_bytes,
                      "largest tensor a model or input may declare or make, e.g. 2G (default " +
                          format_bytes(defaults.max_tensor_bytes) + ", an eighth of physical memory)");
  command->add_option("--max-memory", flags.max_memory,
                      "memory for the weights, and for the values alive during a run, e.g. 8G (default " +
                          format_bytes(defaults.max_memory_bytes) + ", a quarter of physical memory)");
}

Status apply_limit_flags(const LimitFlags& flags) {
  ResourceLimits limits;
  if (!flags.max_tensor_bytes.empty()) {
    ASSIGN_OR_RETURN(limits.max_tensor_bytes, parse_byte_size(flags.max_tensor_bytes, "--max-tensor-bytes"));
  }
  if (!flags.max_memory.empty()) {
    ASSIGN_OR_RETURN(limits.max_memory_bytes, parse_byte_size(flags.max_memory, "--max-memory"));
  }
  set_resource_limits(limits);
  return Status::ok();
}

void warn_about(const Session& session) {
  for (const std::string& w : session.warnings()) warn(w);
}

Result<std::pair<std::string, std::string>> split_assignment(const std::string& arg, const std::string& flag) {
  const size_t eq = arg.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size())
    return invalid_argument(flag + " expects NAME=VALUE, got '" + arg + "'");
  return std::pair{arg.substr(0, eq), arg.substr(eq + 1)};
}

Result<int64_t> parse_integer(const std::string& text, const std::string& what, bool allow_negative) {
  int64_t v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end || text.empty())
    return invalid_argument(what + " must be an integer, got '" + text + "'");
  if (!allow_negative && v < 0) return invalid_argument(what + " must be >= 0, got " + text);
  return v;
}

Result<SessionOptions> to_session_options(const SessionFlags& flags) {
  SessionOptions options;
  auto mode = parse_mode(flags.mode);
  if (!mode) return mode.status().with_context("--mode: ");
  options.mode = *mode;
  auto isa = parse_isa(flags.isa);
  if (!isa) return isa.status().with_context("--isa: ");
  options.isa = *isa;
  auto level = parse_optimization(flags.optimization);
  if (!level) return level.status().with_context("--optimization: ");
  options.optimization = *level;
  if (flags.threads < 0 || flags.threads > kMaxThreads)
    return invalid_argument("--threads must be between 0 (all hardware threads) and " + std::to_string(kMaxThreads) +
                            ", got " + std::to_string(flags.threads));
  options.threads = flags.threads;
  options.lenient = flags.lenient;
  TRY(apply_limit_flags(flags.limits));
  for (const std::string& arg : flags.dims) {
    ASSIGN_OR_RETURN(auto assignment, split_assignment(arg, "--dim"));
    ASSIGN_OR_RETURN(int64_t value, parse_integer(assignment.second, "--dim " + assignment.first, false));
    options.dim_overrides[assignment.first] = value;
  }
  return options;
}

}  // namespace twinrt::cli
