// engine_names() and make_engine(): the one place that knows every engine.
#include <algorithm>

#include "engines/engine_factories.h"

namespace twinrt::engines {
namespace {

// Engines behind the Node.js runner; each name is also its backend's name in
// tools/engines/backends/index.js.
const std::vector<std::string> kRunnerEngines = {"ort",         "ort-web",         "ort-browser",
                                                 "ort-browser-webgpu", "twinrt-wasm", "twinrt-wasm-ref",
                                                 "twinrt-browser",     "twinrt-browser-ref"};

const std::vector<std::string> kGraphOptimizationLevels = {"disabled", "basic", "extended", "all"};

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::vector<std::string> engine_names() {
  std::vector<std::string> names = {"twinrt", "twinrt-ref"};
  names.insert(names.end(), kRunnerEngines.begin(), kRunnerEngines.end());
  return names;
}

Result<std::unique_ptr<Engine>> make_engine(const std::string& name, const EngineOptions& options) {
  if (options.threads < 0) return invalid_argument("engine threads must be >= 0, got " + std::to_string(options.threads));
  if (!contains(kGraphOptimizationLevels, options.graph_optimization))
    return invalid_argument("unknown graph optimization level '" + options.graph_optimization + "' (expected " +
                            joined(kGraphOptimizationLevels) + ")");
  if (name == "twinrt") return make_twinrt_engine(name, Mode::kDefault, options);
  if (name == "twinrt-ref") return make_twinrt_engine(name, Mode::kReference, options);
  if (contains(kRunnerEngines, name)) return start_runner_engine(name, options);
  return invalid_argument("unknown engine '" + name + "' (known: " + joined(engine_names()) + ")");
}

}  // namespace twinrt::engines
