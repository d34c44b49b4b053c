#include "pipeline/model_runner.h"

namespace twinrt::pipeline {
namespace {

class SessionRunner final : public ModelRunner {
 public:
  explicit SessionRunner(std::unique_ptr<Session> session) : session_(std::move(session)) {}
  std::vector<std::string> output_names() const override {
    std::vector<std::string> names;
    for (const auto& info : session_->outputs()) names.push_back(info.name);
    return names;
  }
  Result<TensorMap> run(const TensorMap& feeds, const std::vector<std::string>&) override {
    std::map<std::string, Value> values;
    for (const auto& [name, t] : feeds) values[name] = Value::of(t);
    ASSIGN_OR_RETURN(auto outputs, session_->run(values));
    TensorMap tensors;
    for (auto& [name, v] : outputs) {
      if (!v.is_tensor()) return not_implemented("model output '" + name + "' is not a tensor");
      tensors[name] = std::move(v.tensor);
    }
    return tensors;
  }

 private:
  std::unique_ptr<Session> session_;
};

}  // namespace

Result<std::unique_ptr<ModelRunner>> make_session_runner(const std::string& model_path, const std::string& engine,
                                                         const SessionOptions& options) {
  SessionOptions chosen = options;
  if (engine == "twinrt-ref") chosen.mode = Mode::kReference;
  else if (engine != "twinrt")
    return Status(StatusCode::kUnavailable, "engine '" + engine + "' is not available here (twinrt, twinrt-ref)");
  ASSIGN_OR_RETURN(auto session, Session::load(model_path, chosen));
  return std::unique_ptr<ModelRunner>(new SessionRunner(std::move(session)));
}

}  // namespace twinrt::pipeline
