// One interface to run a model on several inference engines, so `twinrt compare`,
// `localize` and `bench` treat twinrt, ONNX Runtime (native, web in Node, web in Chromium)
// and twinrt's own WebAssembly build alike. See docs/engines.md.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "twinrt/status.h"
#include "twinrt/session.h"
#include "twinrt/tensor.h"

namespace twinrt::engines {

using TensorMap = std::map<std::string, Tensor>;

struct EngineOptions {
  int threads = 1;  // 0: the engine's default (twinrt: all hardware threads)
  // ONNX Runtime graph optimization level: "disabled", "basic", "extended", "all".
  // localize sets "disabled" so every intermediate keeps its name and its own rounding.
  std::string graph_optimization = "all";
  std::map<std::string, int64_t> dim_overrides;  // symbolic dim -> value
  Isa isa = Isa::kAuto;  // twinrt's native engines: the kernels' instruction-set tier
  // Engines in another process: the longest wait for one answer (start, load, a run, a
  // timing batch) before the engine is declared hung and stopped. $TWINRT_ENGINE_TIMEOUT_S
  // overrides it.
  double command_timeout_s = 300;
};

class Engine {
 public:
  virtual ~Engine() = default;

  // The name it was made from: "twinrt", "twinrt-ref", "ort", "ort-web", "ort-browser", ...
  virtual std::string name() const = 0;
  // What actually ran, for reports: versions, backend, the WebGPU adapter, threads.
  // Meaningful after load(); after run() a WebGPU engine adds which nodes ran on the GPU.
  virtual std::string description() const = 0;

  // Loads `model_path`. A model the engine rejects fails with kInvalidModel (or the
  // closest code) and a message that starts with the engine's own error text.
  virtual Status load(const std::string& model_path) = 0;

  // Runs the loaded model. `output_names` empty = all graph outputs. Returns every
  // requested output by name.
  virtual Result<TensorMap> run(const TensorMap& inputs, const std::vector<std::string>& output_names) = 0;

  // Runs the loaded model `runs` times on `inputs` (after it has run at least once) and
  // returns each run's wall time in milliseconds, measured inside the engine's process so
  // process start and data transfer are not counted.
  virtual Result<std::vector<double>> time_runs(const TensorMap& inputs, int runs) = 0;

  // Peak resident memory of the engine's own process beyond what it held at start (its model
  // and runs), in bytes; -1 when the engine cannot tell it apart (engines in this process,
  // engines in a browser).
  virtual Result<int64_t> peak_rss_bytes() { return int64_t{-1}; }
};

// Names make_engine accepts, in the order `--help` lists them.
std::vector<std::string> engine_names();

// Creates an engine by name. An engine that cannot start (no node, no chromium, npm
// package missing) fails with kUnavailable and one line that includes the command that
// installs what is missing; other engines are unaffected.
Result<std::unique_ptr<Engine>> make_engine(const std::string& name, const EngineOptions& options);

}  // namespace twinrt::engines
