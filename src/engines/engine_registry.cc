// engine_names() and make_engine(): the one place that knows every engine.
#include <algorithm>

#include "engines/engine_factories.h"

namespace twinrt::engines {
namespace {

// Engines behind the Node.js runner; each name is also its backend's name in
// tools/engines/backends/index.js.
const std::vector<std::string> kRunnerEngines = {
    "ort",           "ort-web",           "ort-browser",    "ort-browser-webgpu", "ort-webgpu",
    "twinrt-wasm",   "twinrt-wasm-ref",   "twinrt-wasm-exact", "twinrt-browser", "twinrt-browser-ref",
    "twinrt-browser-exact", "twinrt-webgpu", "twinrt-webgpu-exact"};

const std::vector<std::string> kGraphOptimizationLevels = {"disabled", "basic", "extended", "all"};

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The engines in this process, by mode.
const std::vector<std::pair<std::string, Mode>> kNativeEngines = {
    {"twinrt", Mode::kDefault}, {"twinrt-exact", Mode::kExact}, {"twinrt-ref", Mode::kReference}};

}  // namespace

std::vector<std::string> engine_names() {
  std::vector<std::string> names;
  for (const auto& [name, mode] : kNativeEngines) names.push_back(name);
  names.insert(names.end(), kRunnerEngines.begin(), kRunnerEngines.end());
  return names;
}

Result<std::unique_ptr<Engine>> make_engine(const std::string& name, const EngineOptions& options) {
  if (options.threads < 0) return invalid_argument("engine threads must be >= 0, got " + std::to_string(options.threads));
  if (!contains(kGraphOptimizationLevels, options.graph_optimization))
    return invalid_argument("unknown graph optimization level '" + options.graph_optimization + "' (expected " +
                            joined(kGraphOptimizationLevels) + ")");
  // A native engine may name its ISA tier: "twinrt-exact:avx2".
  const size_t colon = name.find(':');
  for (const auto& [native, mode] : kNativeEngines) {
    if (name.compare(0, colon, native) != 0) continue;
    EngineOptions with_isa = options;
    if (colon != std::string::npos) {
      auto isa = parse_isa(name.substr(colon + 1));
      if (!isa) return isa.status().with_context("engine '" + name + "': ");
      with_isa.isa = *isa;
    }
    return make_twinrt_engine(name, mode, with_isa);
  }
  if (contains(kRunnerEngines, name)) return start_runner_engine(name, options);
  return invalid_argument("unknown engine '" + name + "' (known: " + joined(engine_names()) + ")");
}

}  // namespace twinrt::engines
