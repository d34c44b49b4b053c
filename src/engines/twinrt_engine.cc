// The "twinrt", "twinrt-exact" and "twinrt-ref" engines: a twinrt::Session in this process.
#include <chrono>
#include <thread>

#include "cli/version.h"
#include "engines/engine_factories.h"
#include "kernels/cpu/isa.h"

namespace twinrt::engines {
namespace {

std::map<std::string, Value> to_feeds(const TensorMap& inputs) {
  std::map<std::string, Value> feeds;
  for (const auto& [name, tensor] : inputs) feeds[name] = Value::of(tensor);
  return feeds;
}

class TwinrtEngine : public Engine {
 public:
  TwinrtEngine(std::string name, Mode mode, const EngineOptions& options) : name_(std::move(name)) {
    options_.mode = mode;
    options_.threads = options.threads;
    options_.dim_overrides = options.dim_overrides;
    options_.isa = options.isa;
  }

  std::string name() const override { return name_; }

  std::string description() const override {
    std::string threads;
    if (options_.threads == 0) threads = "all " + std::to_string(std::thread::hardware_concurrency()) + " threads";
    else threads = std::to_string(options_.threads) + (options_.threads == 1 ? " thread" : " threads");
    std::string kernels = "scalar reference kernels";
    if (options_.mode != Mode::kReference) {
      auto isa = kernels::resolve_isa(options_.isa);
      kernels = isa ? kernels::isa_description(*isa) : isa.status().message();
    }
    return std::string("twinrt ") + cli::kVersion + " native, mode " + mode_name(options_.mode) + ", " + kernels +
           ", " + threads;
  }

  Status load(const std::string& model_path) override {
    auto session = Session::load(model_path, options_);
    if (!session) return session.status();
    session_ = std::move(*session);
    return Status::ok();
  }

  Result<TensorMap> run(const TensorMap& inputs, const std::vector<std::string>& output_names) override {
    if (!session_) return invalid_argument("twinrt engine: no model loaded");
    ASSIGN_OR_RETURN(auto values, session_->run(to_feeds(inputs)));
    std::vector<std::string> names = output_names;
    if (names.empty())
      for (const IoInfo& out : session_->outputs()) names.push_back(out.name);
    TensorMap outputs;
    for (const std::string& name : names) {
      auto it = values.find(name);
      if (it == values.end()) return invalid_argument("the model has no output named '" + name + "'");
      if (!it->second.is_tensor())
        return not_implemented("output '" + name + "' is not a tensor; engines compare tensors only");
      outputs[name] = it->second.tensor;
    }
    return outputs;
  }

  Result<std::vector<double>> time_runs(const TensorMap& inputs, int runs) override {
    if (!session_) return invalid_argument("twinrt engine: no model loaded");
    const std::map<std::string, Value> feeds = to_feeds(inputs);
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
      const auto start = std::chrono::steady_clock::now();
      auto out = session_->run(feeds);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      if (!out) return out.status();
    }
    return ms;
  }

 private:
  std::string name_;
  SessionOptions options_;
  std::unique_ptr<Session> session_;
};

}  // namespace

std::unique_ptr<Engine> make_twinrt_engine(const std::string& name, Mode mode, const EngineOptions& options) {
  return std::make_unique<TwinrtEngine>(name, mode, options);
}

}  // namespace twinrt::engines
