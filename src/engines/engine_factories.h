// The two kinds of engines behind make_engine (engine_registry.cc).
#pragma once

#include <memory>
#include <string>

#include "engines/engine.h"
#include "twinrt/session.h"

namespace twinrt::engines {

// twinrt itself, in this process.
std::unique_ptr<Engine> make_twinrt_engine(const std::string& name, Mode mode, const EngineOptions& options);

// An engine behind the Node.js runner (tools/engines/runner.js --backend `name`). Starts
// the runner and waits until the backend reports it is ready, so a missing node, npm
// package or browser fails here with kUnavailable.
Result<std::unique_ptr<Engine>> start_runner_engine(const std::string& name, const EngineOptions& options);

}  // namespace twinrt::engines
