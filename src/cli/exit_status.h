// Exit codes of the `twinrt` executable, and how errors map onto them.
//   0  success
//   1  failure: the model is valid but could not be run (unsupported op, internal error),
//      or a check failed
//   2  bad input or usage: missing/corrupt model, bad flag, wrong input tensor
#pragma once

#include <string>

#include "twinrt/status.h"

namespace twinrt::cli {

enum ExitCode : int { kExitOk = 0, kExitFailure = 1, kExitBadInput = 2 };

int exit_code_for(const Status& status);
// Prints "twinrt: error: <message>" to stderr and returns exit_code_for(status).
int report_error(const Status& status);
// Prints "twinrt: warning: <message>" to stderr.
void warn(const std::string& message);

}  // namespace twinrt::cli
