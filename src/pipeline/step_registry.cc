#include <algorithm>
#include <map>

#include "pipeline/step.h"

#include "io/file_io.h"

namespace twinrt::pipeline {
namespace {

std::map<std::string, StepInfo>& registry() {
  static std::map<std::string, StepInfo> steps;  // constructed on first use (static init order)
  return steps;
}

}  // namespace

bool register_step(StepInfo info) {
  const std::string name = info.name;
  registry()[name] = std::move(info);
  return true;
}

const StepInfo* find_step(const std::string& name) {
  auto it = registry().find(name);
  return it == registry().end() ? nullptr : &it->second;
}

std::vector<std::string> step_names() {
  std::vector<std::string> names;
  for (const auto& [name, info] : registry()) names.push_back(name);
  return names;
}

Result<double> number_param(const nlohmann::json& params, const std::string& key, double fallback) {
  if (!params.contains(key)) return fallback;
  if (!params[key].is_number()) return invalid_argument("parameter '" + key + "' must be a number, got " + params[key].dump());
  return params[key].get<double>();
}

Result<int> int_param(const nlohmann::json& params, const std::string& key, int fallback, int min_value) {
  if (!params.contains(key)) return fallback;
  const nlohmann::json& v = params[key];
  if (!v.is_number_integer() || v.get<int64_t>() < min_value || v.get<int64_t>() > 1'000'000)
    return invalid_argument("parameter '" + key + "' must be an integer between " + std::to_string(min_value) +
                            " and 1000000, got " + v.dump());
  return v.get<int>();
}

Result<std::vector<double>> numbers_param(const nlohmann::json& params, const std::string& key,
                                          std::vector<double> fallback) {
  if (!params.contains(key)) return fallback;
  const nlohmann::json& v = params[key];
  const auto bad = invalid_argument("parameter '" + key + "' must be a list of " + std::to_string(fallback.size()) +
                                    " numbers, got " + v.dump());
  if (!v.is_array() || v.size() != fallback.size()) return bad;
  std::vector<double> out;
  for (const auto& x : v) {
    if (!x.is_number()) return bad;
    out.push_back(x.get<double>());
  }
  return out;
}

Result<std::string> string_param(const nlohmann::json& params, const std::string& key, const std::string& fallback) {
  if (!params.contains(key)) return fallback;
  if (!params[key].is_string()) return invalid_argument("parameter '" + key + "' must be a string, got " + params[key].dump());
  return params[key].get<std::string>();
}

Result<bool> bool_param(const nlohmann::json& params, const std::string& key, bool fallback) {
  if (!params.contains(key)) return fallback;
  if (!params[key].is_boolean()) return invalid_argument("parameter '" + key + "' must be true or false, got " + params[key].dump());
  return params[key].get<bool>();
}

Result<std::vector<std::string>> lines_param(const nlohmann::json& params, const std::string& key,
                                             const StepContext& context) {
  ASSIGN_OR_RETURN(std::string path, string_param(params, key, ""));
  if (path.empty()) return invalid_argument("parameter '" + key + "' (a text file) is required");
  if (path[0] != '/') path = context.base_dir + "/" + path;
  auto text = io::read_file_bytes(path);
  if (!text) return text.status().with_context("parameter '" + key + "': ");
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text->size()) {
    size_t end = text->find('\n', start);
    if (end == std::string::npos) end = text->size();
    std::string line = text->substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  return list.empty() ? "none" : list;
}

Status check_known_keys(const nlohmann::json& object, const std::vector<std::string>& known, const std::string& kind) {
  for (const auto& [key, value] : object.items())
    if (std::find(known.begin(), known.end(), key) == known.end())
      return invalid_argument("unknown " + kind + " '" + key + "' (known: " + join_names(known) + ")");
  return Status::ok();
}

Result<Tensor> tensor_input(const ValueMap& inputs, const std::string& port, DataType dtype, int64_t rank) {
  auto it = inputs.find(port);
  if (it == inputs.end()) return internal_error("input '" + port + "' was not given");
  if (it->second.is_list)
    return invalid_argument("input '" + port + "' expects one tensor, got " + it->second.describe() +
                            " (set \"map\": true on the stage to run it once per item)");
  const Tensor& t = it->second.tensor();
  if (t.dtype() != dtype || t.rank() != rank)
    return invalid_argument("input '" + port + "' expects " + dtype_name(dtype) + " of rank " + std::to_string(rank) +
                            ", got " + it->second.describe());
  return t;
}

}  // namespace twinrt::pipeline
