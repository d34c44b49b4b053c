// Engines behind the Node.js runner (tools/engines/runner.js): ONNX Runtime native and
// web, in Node.js or in headless Chromium. One runner process per engine, spoken to in
// JSON lines; tensors travel as .npy files in a private temporary folder.
//
// Where things are found (docs/engines.md):
//   node            $TWINRT_NODE, else `node` in PATH
//   tools folder    $TWINRT_TOOLS_DIR, else <source tree>/tools
//   answer timeout  EngineOptions::command_timeout_s, or $TWINRT_ENGINE_TIMEOUT_S
#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "engines/child_process.h"
#include "engines/engine_factories.h"
#include "io/npy.h"
#include "io/temp_dir.h"

#ifndef TWINRT_SOURCE_DIR
#define TWINRT_SOURCE_DIR "."
#endif

namespace twinrt::engines {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? value : fallback;
}

std::string tools_dir() { return env_or("TWINRT_TOOLS_DIR", std::string(TWINRT_SOURCE_DIR) + "/tools"); }

Result<double> command_timeout(const EngineOptions& options) {
  const std::string text = env_or("TWINRT_ENGINE_TIMEOUT_S", "");
  if (text.empty()) return options.command_timeout_s;
  char* end = nullptr;
  const double seconds = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !(seconds > 0))
    return invalid_argument("TWINRT_ENGINE_TIMEOUT_S must be a positive number of seconds, got '" + text + "'");
  return seconds;
}

class RunnerEngine : public Engine {
 public:
  RunnerEngine(std::string name, double timeout_s, std::unique_ptr<ChildProcess> child,
               std::unique_ptr<io::TempDir> dir)
      : name_(std::move(name)), timeout_s_(timeout_s), child_(std::move(child)), dir_(std::move(dir)) {}

  ~RunnerEngine() override {
    // A graceful quit lets a browser engine close Chromium; then the runner is killed.
    if (child_->write_line(R"({"cmd":"quit"})").is_ok()) (void)child_->read_line(10);
    child_->stop(10);
  }

  // Waits for the runner's first line: the backend started, or why not.
  Status await_start() {
    ASSIGN_OR_RETURN(json reply, read_reply());
    if (!reply.value("ok", false)) return Status(StatusCode::kUnavailable, name_ + ": " + reply.value("error", "?"));
    description_ = reply.value("description", "");
    return Status::ok();
  }

  std::string name() const override { return name_; }
  std::string description() const override { return description_; }

  Status load(const std::string& model_path) override {
    std::error_code ec;
    const std::string absolute = fs::absolute(model_path, ec).string();
    ASSIGN_OR_RETURN(json reply, call({{"cmd", "load"}, {"model", ec ? model_path : absolute}}, StatusCode::kInvalidModel));
    description_ = reply.value("description", description_);
    output_names_ = reply.value("outputNames", std::vector<std::string>{});
    return Status::ok();
  }

  Result<TensorMap> run(const TensorMap& inputs, const std::vector<std::string>& output_names) override {
    const std::vector<std::string>& names = output_names.empty() ? output_names_ : output_names;
    const std::string out_dir = dir_->path() + "/out";
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    if (ec) return io_error("cannot create " + out_dir + ": " + ec.message());
    ASSIGN_OR_RETURN(json files, write_inputs(inputs));
    ASSIGN_OR_RETURN(json reply, call({{"cmd", "run"}, {"inputs", files}, {"outputs", names}, {"out_dir", out_dir}},
                                      StatusCode::kNotImplemented));
    description_ = reply.value("description", description_);  // e.g. where WebGPU ran each node
    const json& written = reply["files"];
    if (!written.is_array() || written.size() != names.size())
      return internal_error(name_ + ": the runner answered " + std::to_string(written.size()) + " files for " +
                            std::to_string(names.size()) + " outputs");
    TensorMap outputs;
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string file = written[i].is_string() ? written[i].get<std::string>() : "";
      auto tensor = io::read_npy_file(file);
      fs::remove(file, ec);
      if (!tensor) return tensor.status().with_context(name_ + ": output '" + names[i] + "': ");
      outputs[names[i]] = std::move(*tensor);
    }
    return outputs;
  }

  Result<int64_t> peak_rss_bytes() override {
    // The page's memory is in Chromium's processes, not the runner's (every webgpu engine runs in Chromium).
    if (name_.find("browser") != std::string::npos || name_.find("webgpu") != std::string::npos) return int64_t{-1};
    ASSIGN_OR_RETURN(json reply, call({{"cmd", "memory"}}, StatusCode::kNotImplemented));
    const int64_t peak = reply.value("peak_rss_bytes", int64_t{-1}), start = reply.value("start_rss_bytes", int64_t{-1});
    return peak < 0 || start < 0 ? int64_t{-1} : peak - start;
  }

  Result<std::vector<double>> time_runs(const TensorMap& inputs, int runs) override {
    ASSIGN_OR_RETURN(json files, write_inputs(inputs));
    ASSIGN_OR_RETURN(json reply, call({{"cmd", "time"}, {"inputs", files}, {"runs", runs}}, StatusCode::kNotImplemented));
    const json& ms = reply["ms"];
    if (!ms.is_array() || ms.size() != static_cast<size_t>(runs))
      return internal_error(name_ + ": the runner answered " + std::to_string(ms.size()) + " timings for " +
                            std::to_string(runs) + " runs");
    std::vector<double> out;
    for (const json& v : ms) out.push_back(v.is_number() ? v.get<double>() : -1.0);
    return out;
  }

 private:
  // Inputs as .npy files, by input name.
  Result<json> write_inputs(const TensorMap& inputs) {
    json files = json::object();
    int index = 0;
    for (const auto& [input_name, tensor] : inputs) {
      const std::string file = dir_->path() + "/input_" + std::to_string(index++) + ".npy";
      TRY(io::write_npy_file(file, tensor).with_context(name_ + ": input '" + input_name + "': "));
      files[input_name] = file;
    }
    return files;
  }

  // The next reply line; anything else on stdout (a library printing) is skipped.
  Result<json> read_reply() {
    while (true) {
      auto line = child_->read_line(timeout_s_);
      if (!line) return line.status().with_context(name_ + ": engine runner: ");
      if (line->empty() || (*line)[0] != '{') continue;
      json reply = json::parse(*line, nullptr, false);
      if (reply.is_object()) return reply;
    }
  }

  // Sends a command; a failure the runner reports keeps the engine's own text. Failures
  // it does not classify get `failure_code`.
  Result<json> call(const json& command, StatusCode failure_code) {
    TRY(child_->write_line(command.dump()).with_context(name_ + ": engine runner: "));
    ASSIGN_OR_RETURN(json reply, read_reply());
    if (reply.value("ok", false)) return reply;
    const std::string code = reply.value("code", "failed");
    const std::string error = reply.value("error", "(no error text)");
    if (code == "unavailable") return Status(StatusCode::kUnavailable, name_ + ": " + error);
    if (code == "invalid_model") return Status(StatusCode::kInvalidModel, error);
    return Status(failure_code, error);
  }

  std::string name_;
  double timeout_s_;
  std::unique_ptr<ChildProcess> child_;
  std::unique_ptr<io::TempDir> dir_;
  std::string description_;
  std::vector<std::string> output_names_;
};

}  // namespace

Result<std::unique_ptr<Engine>> start_runner_engine(const std::string& name, const EngineOptions& options) {
  ASSIGN_OR_RETURN(double timeout_s, command_timeout(options));
  const std::string runner = tools_dir() + "/engines/runner.js";
  if (!fs::is_regular_file(runner))
    return Status(StatusCode::kUnavailable, name + ": the engine runner " + runner +
                                                " is missing; set TWINRT_TOOLS_DIR to twinrt's tools/ folder");
  const json runner_options = {{"threads", options.threads},
                               {"graph_optimization", options.graph_optimization},
                               {"dim_overrides", options.dim_overrides}};
  const std::string node = env_or("TWINRT_NODE", "node");
  auto child = ChildProcess::spawn({node, runner, "--backend", name, "--options", runner_options.dump()});
  if (!child)
    return Status(StatusCode::kUnavailable, name + ": " + child.status().message() +
                                                "; install Node.js: apt-get install nodejs (or set TWINRT_NODE)");
  ASSIGN_OR_RETURN(auto dir, io::TempDir::create("twinrt-engine"));
  auto engine = std::make_unique<RunnerEngine>(name, timeout_s, std::move(*child), std::move(dir));
  TRY(engine->await_start());
  return std::unique_ptr<Engine>(std::move(engine));
}

}  // namespace twinrt::engines
