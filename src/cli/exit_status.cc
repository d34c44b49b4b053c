#include "cli/exit_status.h"

#include <cstdio>

namespace twinrt::cli {

int exit_code_for(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk: return kExitOk;
    case StatusCode::kInvalidModel:
    case StatusCode::kInvalidArgument:
    case StatusCode::kIoError:
    case StatusCode::kUnavailable: return kExitBadInput;
    case StatusCode::kNotImplemented:
    case StatusCode::kOutOfMemory:
    case StatusCode::kInternal: return kExitFailure;
  }
  return kExitFailure;
}

int report_error(const Status& status) {
  std::fprintf(stderr, "twinrt: error: %s\n", status.message().c_str());
  return exit_code_for(status);
}

void warn(const std::string& message) { std::fprintf(stderr, "twinrt: warning: %s\n", message.c_str()); }

}  // namespace twinrt::cli
