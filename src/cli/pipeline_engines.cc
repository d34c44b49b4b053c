#include "cli/pipeline_engines.h"

#include "engines/engine.h"

namespace twinrt::cli {
namespace {

class EngineRunner final : public pipeline::ModelRunner {
 public:
  explicit EngineRunner(std::unique_ptr<engines::Engine> engine) : engine_(std::move(engine)) {}
  std::vector<std::string> output_names() const override { return {}; }
  Result<pipeline::TensorMap> run(const pipeline::TensorMap& feeds, const std::vector<std::string>& outputs) override {
    return engine_->run(feeds, outputs);
  }

 private:
  std::unique_ptr<engines::Engine> engine_;
};

}  // namespace

Result<std::unique_ptr<pipeline::ModelRunner>> make_engine_runner(const std::string& model_path, const std::string& engine,
                                                                  const SessionOptions& options) {
  if (engine == "twinrt" || engine == "twinrt-ref") return pipeline::make_session_runner(model_path, engine, options);
  engines::EngineOptions engine_options;
  engine_options.threads = options.threads;
  engine_options.dim_overrides = options.dim_overrides;
  ASSIGN_OR_RETURN(auto runner, engines::make_engine(engine, engine_options));
  TRY(runner->load(model_path));
  return std::unique_ptr<pipeline::ModelRunner>(new EngineRunner(std::move(runner)));
}

}  // namespace twinrt::cli
