// Built-in glue steps ("op" in a pipeline file). Each step lives in its own file under
// steps/ and registers itself with TWINRT_REGISTER_STEP; the runner finds it by name.
// See docs/pipelines.md, "Adding a step".
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pipeline/value.h"

namespace twinrt::pipeline {

// What a step's factory may need besides its parameters.
struct StepContext {
  std::string base_dir;  // the pipeline file's folder: relative paths in params start here
  std::string stage;     // the stage's name, for error messages
};

class Step {
 public:
  virtual ~Step() = default;
  // `inputs` holds a value for every declared input port. A step that works on one item
  // (a crop, a line) is run once per item by the runner when its stage has "map": true.
  virtual Result<ValueMap> run(const ValueMap& inputs) const = 0;
};

struct StepInfo {
  std::string name;
  std::string summary;                // one line for docs and errors
  std::vector<std::string> inputs;    // port names
  std::vector<std::string> outputs;
  std::vector<std::string> file_params;  // parameters naming a file (fetched by twinrt-web)
  // Reads and validates the parameters; errors name the parameter.
  std::function<Result<std::unique_ptr<Step>>(const nlohmann::json& params, const StepContext& context)> create;
};

bool register_step(StepInfo info);
const StepInfo* find_step(const std::string& name);
std::vector<std::string> step_names();

#define TWINRT_REGISTER_STEP(ident, ...) \
  static const bool TWINRT_CONCAT(registered_step_, ident) = ::twinrt::pipeline::register_step(__VA_ARGS__)

// Parameter helpers: each error names the parameter and what it expected.
Result<double> number_param(const nlohmann::json& params, const std::string& key, double fallback);
Result<int> int_param(const nlohmann::json& params, const std::string& key, int fallback, int min_value);
Result<std::vector<double>> numbers_param(const nlohmann::json& params, const std::string& key,
                                          std::vector<double> fallback);
Result<std::string> string_param(const nlohmann::json& params, const std::string& key, const std::string& fallback);
Result<bool> bool_param(const nlohmann::json& params, const std::string& key, bool fallback);
// The lines of the text file named by parameter `key` (a path relative to the pipeline
// file), without line ends; for dictionaries and label lists.
Result<std::vector<std::string>> lines_param(const nlohmann::json& params, const std::string& key,
                                             const StepContext& context);
// Rejects keys of `object` not in `known` (a typo must not silently fall back to a
// default): "unknown <kind> 'key' (known: a, b)".
Status check_known_keys(const nlohmann::json& object, const std::vector<std::string>& known, const std::string& kind);
inline Status check_param_keys(const nlohmann::json& params, const std::vector<std::string>& known) {
  return check_known_keys(params, known, "parameter");
}
// "a, b, c"; "none" when empty.
std::string join_names(const std::vector<std::string>& names);

// A single tensor of `dtype` and rank `rank` from input `port`, or an error naming both.
Result<Tensor> tensor_input(const ValueMap& inputs, const std::string& port, DataType dtype, int64_t rank);

}  // namespace twinrt::pipeline
