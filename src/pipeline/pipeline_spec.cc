#include "pipeline/pipeline_spec.h"

#include <algorithm>
#include <functional>
#include <set>

#include "io/file_io.h"
#include "io/regular_file.h"
#include "pipeline/step.h"

namespace twinrt::pipeline {
namespace {

using nlohmann::json;

Status check_keys(const json& object, const std::vector<std::string>& known, const std::string& where) {
  return check_known_keys(object, known, "key").with_context(where + ": ");
}

Result<std::vector<std::string>> string_list(const json& root, const std::string& key) {
  if (!root.contains(key) || !root[key].is_array() || root[key].empty())
    return invalid_argument("'" + key + "' must be a non-empty list of value names");
  std::vector<std::string> names;
  for (const auto& v : root[key]) {
    if (!v.is_string() || v.get<std::string>().empty()) return invalid_argument("'" + key + "' holds a non-name: " + v.dump());
    names.push_back(v.get<std::string>());
  }
  return names;
}

Result<std::map<std::string, std::string>> port_map(const json& stage, const std::string& key) {
  std::map<std::string, std::string> ports;
  if (!stage.contains(key)) return ports;
  if (!stage[key].is_object()) return invalid_argument("'" + key + "' must map port names to value names");
  for (const auto& [port, v] : stage[key].items()) {
    if (!v.is_string() || v.get<std::string>().empty())
      return invalid_argument("'" + key + "." + port + "' must be a value name, got " + v.dump());
    ports[port] = v.get<std::string>();
  }
  return ports;
}

std::string resolve(const std::string& base_dir, const std::string& path) {
  if (path.empty() || path[0] == '/' || base_dir.empty()) return path;
  return base_dir + "/" + path;
}

Result<SessionOptions> parse_session(const json& s) {
  SessionOptions options;
  if (!s.is_object()) return invalid_argument("'session' must be an object");
  TRY(check_keys(s, {"mode", "threads", "optimization", "dims"}, "'session'"));
  if (s.contains("mode")) {
    if (!s["mode"].is_string()) return invalid_argument("'session.mode' must be a string");
    ASSIGN_OR_RETURN(options.mode, parse_mode(s["mode"].get<std::string>()));
  }
  if (s.contains("optimization")) {
    if (!s["optimization"].is_string()) return invalid_argument("'session.optimization' must be a string");
    ASSIGN_OR_RETURN(options.optimization, parse_optimization(s["optimization"].get<std::string>()));
  }
  if (s.contains("threads")) {
    const json& t = s["threads"];
    if (!t.is_number_integer() || t.get<int64_t>() < 0 || t.get<int64_t>() > 256)
      return invalid_argument("'session.threads' must be an integer in [0, 256], got " + t.dump());
    options.threads = t.get<int>();
  }
  if (s.contains("dims")) {
    if (!s["dims"].is_object()) return invalid_argument("'session.dims' must map dim names to sizes");
    for (const auto& [dim, v] : s["dims"].items()) {
      if (!v.is_number_integer() || v.get<int64_t>() < 0)
        return invalid_argument("'session.dims." + dim + "' must be an integer >= 0, got " + v.dump());
      options.dim_overrides[dim] = v.get<int64_t>();
    }
  }
  return options;
}

Status check_ports(const std::vector<std::string>& declared, const std::map<std::string, std::string>& given,
                   const std::string& kind, const std::string& step) {
  for (const auto& port : declared)
    if (!given.count(port)) return invalid_argument("step '" + step + "' needs " + kind + " '" + port + "'");
  for (const auto& [port, value] : given)
    if (std::find(declared.begin(), declared.end(), port) == declared.end())
      return invalid_argument("step '" + step + "' has no " + kind + " '" + port + "' (" + kind + "s: " + join_names(declared) + ")");
  return Status::ok();
}

Result<StageSpec> parse_stage(const json& s, const std::string& base_dir) {
  StageSpec stage;
  if (!s.is_object()) return invalid_argument("every stage must be an object, got " + s.dump());
  if (!s.contains("name") || !s["name"].is_string() || s["name"].get<std::string>().empty())
    return invalid_argument("every stage needs a \"name\"");
  stage.name = s["name"].get<std::string>();
  auto fail = [&](const Status& st) { return st.with_context("stage '" + stage.name + "': "); };
  if (Status st = check_keys(s, {"name", "step", "model", "engine", "session", "params", "inputs", "outputs", "map", "batch"},
                             "stage");
      !st)
    return fail(st);
  if (s.contains("step") == s.contains("model")) return fail(invalid_argument("needs exactly one of \"step\" and \"model\""));
  auto inputs = port_map(s, "inputs");
  auto outputs = port_map(s, "outputs");
  if (!inputs) return fail(inputs.status());
  if (!outputs) return fail(outputs.status());
  stage.inputs = *inputs;
  stage.outputs = *outputs;
  if (stage.outputs.empty()) return fail(invalid_argument("'outputs' must name at least one value"));
  if (s.contains("map")) {
    if (!s["map"].is_boolean()) return fail(invalid_argument("'map' must be true or false"));
    stage.map = s["map"].get<bool>();
  }
  if (s.contains("params")) {
    if (!s["params"].is_object()) return fail(invalid_argument("'params' must be an object"));
    stage.params = s["params"];
  }
  if (s.contains("step")) {
    if (!s["step"].is_string()) return fail(invalid_argument("'step' must be a step name"));
    stage.step = s["step"].get<std::string>();
    const StepInfo* info = find_step(stage.step);
    if (!info) return fail(invalid_argument("unknown step '" + stage.step + "' (built-in steps: " + join_names(step_names()) + ")"));
    for (const char* key : {"engine", "session", "batch"})
      if (s.contains(key)) return fail(invalid_argument(std::string("'") + key + "' applies to model stages only"));
    if (Status st = check_ports(info->inputs, stage.inputs, "input", stage.step); !st) return fail(st);
    if (Status st = check_ports(info->outputs, stage.outputs, "output", stage.step); !st) return fail(st);
    return stage;
  }
  if (!s["model"].is_string() || s["model"].get<std::string>().empty())
    return fail(invalid_argument("'model' must be a path"));
  stage.model_path = resolve(base_dir, s["model"].get<std::string>());
  if (auto file = io::RegularFile::open(stage.model_path, "model"); !file)
    return fail(invalid_argument("missing model: " + file.status().message()));
  if (s.contains("engine")) {
    if (!s["engine"].is_string()) return fail(invalid_argument("'engine' must be an engine name"));
    stage.engine = s["engine"].get<std::string>();
  }
  if (s.contains("session")) {
    auto options = parse_session(s["session"]);
    if (!options) return fail(options.status());
    stage.session = *options;
  }
  if (s.contains("batch")) {
    if (!s["batch"].is_number_integer() || s["batch"].get<int64_t>() < 1 || s["batch"].get<int64_t>() > 4096)
      return fail(invalid_argument("'batch' must be an integer in [1, 4096], got " + s["batch"].dump()));
    if (!stage.map) return fail(invalid_argument("'batch' needs \"map\": true"));
    stage.batch = s["batch"].get<int>();
  }
  if (stage.inputs.empty()) return fail(invalid_argument("'inputs' must feed at least one model input"));
  return stage;
}

// Orders the stages in waves (see PipelineSpec::stages) and numbers each stage's wave;
// names a cycle.
Result<std::vector<StageSpec>> order_stages(std::vector<StageSpec> stages, const std::vector<std::string>& inputs) {
  std::map<std::string, size_t> producer;
  for (size_t i = 0; i < stages.size(); ++i)
    for (const auto& [port, value] : stages[i].outputs) {
      for (const auto& in : inputs)
        if (in == value) return invalid_argument("stage '" + stages[i].name + "' writes '" + value + "', which is a pipeline input");
      auto [it, inserted] = producer.emplace(value, i);
      if (!inserted)
        return invalid_argument("value '" + value + "' is written by both stage '" + stages[it->second].name +
                                "' and stage '" + stages[i].name + "'");
    }
  const std::set<std::string> pipeline_inputs(inputs.begin(), inputs.end());
  std::vector<std::vector<size_t>> deps(stages.size());
  for (size_t i = 0; i < stages.size(); ++i)
    for (const auto& [port, value] : stages[i].inputs) {
      if (pipeline_inputs.count(value)) continue;
      auto it = producer.find(value);
      if (it == producer.end())
        return invalid_argument("stage '" + stages[i].name + "' input '" + port + "' reads '" + value +
                                "', which no stage writes and is not a pipeline input");
      deps[i].push_back(it->second);
    }
  // Depth-first search; a stage met again while on the stack closes a cycle.
  enum class Mark { kNew, kActive, kDone };
  std::vector<Mark> mark(stages.size(), Mark::kNew);
  std::vector<size_t> order, stack;
  std::function<Status(size_t)> visit = [&](size_t i) -> Status {
    if (mark[i] == Mark::kDone) return Status::ok();
    if (mark[i] == Mark::kActive) {
      std::string cycle;
      auto start = std::find(stack.begin(), stack.end(), i);
      for (auto it = start; it != stack.end(); ++it) cycle += stages[*it].name + " -> ";
      return invalid_argument("the stages form a cycle: " + cycle + stages[i].name);
    }
    mark[i] = Mark::kActive;
    stack.push_back(i);
    for (size_t d : deps[i]) TRY(visit(d));
    stack.pop_back();
    mark[i] = Mark::kDone;
    order.push_back(i);
    return Status::ok();
  };
  for (size_t i = 0; i < stages.size(); ++i) TRY(visit(i));
  // `order` lists producers first, so each stage's wave is known when it is reached.
  for (size_t i : order)
    for (size_t d : deps[i]) stages[i].wave = std::max(stages[i].wave, stages[d].wave + 1);
  // Waves in order, file order within a wave: the same sequence whether a wave's stages
  // then run concurrently or not, so errors, results and traces do not depend on it.
  std::vector<size_t> by_wave(stages.size());
  for (size_t i = 0; i < by_wave.size(); ++i) by_wave[i] = i;
  std::stable_sort(by_wave.begin(), by_wave.end(), [&](size_t a, size_t b) { return stages[a].wave < stages[b].wave; });
  std::vector<StageSpec> ordered;
  for (size_t i : by_wave) ordered.push_back(std::move(stages[i]));
  return ordered;
}

Result<std::vector<StateSpec>> parse_state(const json& list, const PipelineSpec& spec, const std::set<std::string>& known) {
  if (!list.is_array()) return invalid_argument("'state' must be a list of {from, to, dtype, shape}");
  std::vector<StateSpec> states;
  for (const json& s : list) {
    if (!s.is_object()) return invalid_argument("'state' entries must be objects, got " + s.dump());
    TRY(check_keys(s, {"from", "to", "dtype", "shape"}, "state"));
    if (!s.contains("from") || !s["from"].is_string() || !s.contains("to") || !s["to"].is_string())
      return invalid_argument("a 'state' entry needs \"from\" (a value) and \"to\" (a pipeline input)");
    StateSpec state{s["from"].get<std::string>(), s["to"].get<std::string>(), DataType::kFloat, {}};
    if (!known.count(state.from)) return invalid_argument("state from '" + state.from + "': no stage writes it");
    if (std::find(spec.inputs.begin(), spec.inputs.end(), state.to) == spec.inputs.end())
      return invalid_argument("state to '" + state.to + "': not a pipeline input");
    auto contract = parse_contract({{"dtype", s.value("dtype", json("float32"))}, {"shape", s.value("shape", json::array())}});
    if (!contract) return contract.status().with_context("state to '" + state.to + "': ");
    for (const DimContract& d : *contract->shape) {
      if (d.value < 0) return invalid_argument("state to '" + state.to + "': the initial shape needs fixed sizes");
      state.shape.push_back(d.value);
    }
    state.dtype = *contract->dtype;
    states.push_back(std::move(state));
  }
  return states;
}

}  // namespace

Result<PipelineSpec> parse_pipeline(const std::string& json_text, const std::string& base_dir) {
  json root = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) return invalid_argument("the pipeline file is not valid JSON");
  if (!root.is_object()) return invalid_argument("the pipeline file must hold a JSON object");
  TRY(check_keys(root, {"name", "inputs", "outputs", "stages", "contracts", "state", "description", "parallel"},
                     "pipeline"));
  PipelineSpec spec;
  spec.base_dir = base_dir;
  if (root.contains("name") && root["name"].is_string()) spec.name = root["name"].get<std::string>();
  if (root.contains("parallel")) {
    if (!root["parallel"].is_boolean()) return invalid_argument("'parallel' must be true or false, got " + root["parallel"].dump());
    spec.parallel = root["parallel"].get<bool>();
  }
  ASSIGN_OR_RETURN(spec.inputs, string_list(root, "inputs"));
  ASSIGN_OR_RETURN(spec.outputs, string_list(root, "outputs"));
  if (!root.contains("stages") || !root["stages"].is_array() || root["stages"].empty())
    return invalid_argument("'stages' must be a non-empty list");
  std::vector<StageSpec> stages;
  std::set<std::string> names;
  for (const auto& s : root["stages"]) {
    ASSIGN_OR_RETURN(StageSpec stage, parse_stage(s, base_dir));
    if (!names.insert(stage.name).second) return invalid_argument("two stages are named '" + stage.name + "'");
    stages.push_back(std::move(stage));
  }
  ASSIGN_OR_RETURN(spec.stages, order_stages(std::move(stages), spec.inputs));
  std::set<std::string> known(spec.inputs.begin(), spec.inputs.end());
  for (const auto& stage : spec.stages)
    for (const auto& [port, value] : stage.outputs) known.insert(value);
  for (const auto& out : spec.outputs)
    if (!known.count(out)) return invalid_argument("pipeline output '" + out + "' is written by no stage");
  if (root.contains("contracts")) {
    if (!root["contracts"].is_object()) return invalid_argument("'contracts' must map value names to contracts");
    for (const auto& [value, c] : root["contracts"].items()) {
      if (!known.count(value)) return invalid_argument("contract for '" + value + "': no stage writes it and it is not an input");
      auto contract = parse_contract(c);
      if (!contract) return contract.status().with_context("contract for '" + value + "': ");
      spec.contracts[value] = *contract;
    }
  }
  if (root.contains("state")) {
    ASSIGN_OR_RETURN(spec.state, parse_state(root["state"], spec, known));
  }
  return spec;
}

Result<PipelineSpec> load_pipeline_file(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, io::read_file_bytes(path));
  const size_t slash = path.find_last_of('/');
  const std::string base_dir = slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
  auto spec = parse_pipeline(text, base_dir);
  if (!spec) return spec.status().with_context(path + ": ");
  return spec;
}

Result<std::vector<std::string>> referenced_files(const std::string& json_text) {
  json root = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (!root.is_object() || !root.contains("stages") || !root["stages"].is_array())
    return invalid_argument("the pipeline file is not a JSON object with a 'stages' list");
  std::vector<std::string> files;
  auto add = [&](const json& v) {
    if (v.is_string() && std::find(files.begin(), files.end(), v.get<std::string>()) == files.end())
      files.push_back(v.get<std::string>());
  };
  for (const json& stage : root["stages"]) {
    if (!stage.is_object()) continue;
    if (stage.contains("model")) add(stage["model"]);
    if (!stage.contains("step") || !stage["step"].is_string() || !stage.contains("params")) continue;
    const StepInfo* info = find_step(stage["step"].get<std::string>());
    if (!info || !stage["params"].is_object()) continue;
    for (const std::string& key : info->file_params)
      if (stage["params"].contains(key)) add(stage["params"][key]);
  }
  return files;
}

}  // namespace twinrt::pipeline
