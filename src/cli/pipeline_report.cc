#include "cli/pipeline_report.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include <cstring>

#include "cli/session_flags.h"
#include "io/file_io.h"
#include "io/npy.h"
#include "io/tensor_stats.h"

namespace twinrt::cli {
namespace {

using pipeline::PipelineValue;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

std::string summary(const Tensor& t) {
  std::string text = std::string(dtype_name(t.dtype())) + shape_to_string(t.shape());
  if (t.dtype() == DataType::kString) return text;
  auto stats = io::tensor_stats(t);
  return stats ? text + " " + io::format_stats(*stats) : text;
}

nlohmann::json tensor_json(const Tensor& t) {
  nlohmann::json j = {{"dtype", dtype_name(t.dtype())}, {"shape", t.shape()}};
  auto stats = io::tensor_stats(t);
  if (stats && stats->has_values) j["min"] = stats->min, j["max"] = stats->max, j["mean"] = stats->mean;
  // Small float tensors (boxes, scores) in full, so results can be compared.
  if (t.dtype() == DataType::kFloat && t.numel() <= 4096)
    j["data"] = std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
  return j;
}

// File-name-safe: letters, digits, '-', '_' and '.' kept, anything else '_'.
std::string safe(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  return out;
}

}  // namespace

std::vector<StageTiming> stage_timings(const pipeline::Pipeline& p, const std::vector<pipeline::RunResult>& runs) {
  std::vector<StageTiming> timings;
  const auto& stages = p.spec().stages;
  for (size_t i = 0; i < stages.size(); ++i) {
    StageTiming t;
    t.stage = stages[i].name;
    t.kind = stages[i].is_model() ? "model" : stages[i].step;
    t.engine = stages[i].is_model() ? p.engine_of(stages[i]) : "";
    t.load_ms = p.load_ms()[i];
    t.wave = stages[i].wave;
    for (size_t r = 0; r < runs.size(); ++r) {
      const pipeline::StageRecord& rec = runs[r].stages[i];
      if (r == 0) t.cold_ms = rec.ms, t.model_calls = rec.model_calls;
      else t.warm_ms.push_back(rec.ms);
    }
    timings.push_back(std::move(t));
  }
  return timings;
}

std::vector<std::string> value_strings(const PipelineValue& v) {
  std::vector<std::string> strings;
  for (const Tensor& t : v.items) {
    if (t.dtype() != DataType::kString) return {};
    strings.insert(strings.end(), t.data<std::string>(), t.data<std::string>() + t.numel());
  }
  return strings;
}

// The rows of a small float32 matrix (speech segments, a few scores): short enough to read.
static void print_small_rows(const Tensor& t) {
  if (t.dtype() != DataType::kFloat || t.rank() != 2 || t.numel() > 64) return;
  for (int64_t r = 0; r < t.dim(0); ++r) {
    std::printf("  [%lld]", static_cast<long long>(r));
    for (int64_t c = 0; c < t.dim(1); ++c) std::printf(" %g", static_cast<double>(t.data<float>()[r * t.dim(1) + c]));
    std::printf("\n");
  }
}

void print_outputs(const pipeline::RunResult& result, const std::vector<std::string>& order) {
  for (const std::string& name : order) {
    const PipelineValue& v = result.outputs.at(name);
    const bool strings = !v.items.empty() && v.items.front().dtype() == DataType::kString;
    if (strings) {
      const std::vector<std::string> lines = value_strings(v);
      std::printf("%s (%zu):\n", name.c_str(), lines.size());
      for (const std::string& line : lines) std::printf("  %s\n", line.c_str());
    } else if (v.is_list) {
      std::printf("%s: list of %zu\n", name.c_str(), v.items.size());
      for (size_t i = 0; i < v.items.size(); ++i) std::printf("  [%zu] %s\n", i, summary(v.items[i]).c_str());
    } else {
      std::printf("%s: %s\n", name.c_str(), summary(v.tensor()).c_str());
      print_small_rows(v.tensor());
    }
  }
}

void print_timings(const std::vector<StageTiming>& timings, bool parallel) {
  std::printf("%-12s %-18s %-8s %9s %9s %9s %6s\n", "stage", "kind", "engine", "load ms", "cold ms", "warm ms", "calls");
  for (const StageTiming& t : timings) {
    const std::string warm = t.warm_ms.empty() ? "-" : std::to_string(median(t.warm_ms)).substr(0, 7);
    std::printf("%-12s %-18s %-8s %9.1f %9.1f %9s %6d\n", t.stage.c_str(), t.kind.c_str(), t.engine.c_str(), t.load_ms,
                t.cold_ms, warm.c_str(), t.model_calls);
  }
  for (size_t i = 1; parallel && i < timings.size(); ++i)
    if (timings[i].wave == timings[i - 1].wave) {
      std::printf("(stages of one wave run concurrently: their times overlap)\n");
      break;
    }
}

nlohmann::json report_json(const pipeline::Pipeline& p, const pipeline::RunResult& result,
                           const std::vector<StageTiming>& timings) {
  nlohmann::json j;
  j["pipeline"] = p.spec().name;
  j["parallel"] = p.parallel();  // stages of one wave ran concurrently: their times overlap
  j["run_ms"] = result.ms;       // wall time of this run: less than the stages' sum when they overlap
  nlohmann::json outputs = nlohmann::json::object();
  for (const std::string& name : p.spec().outputs) {
    const PipelineValue& v = result.outputs.at(name);
    const std::vector<std::string> strings = value_strings(v);
    if (!strings.empty() || (v.is_list && v.items.empty())) outputs[name] = strings;
    else if (!v.is_list) outputs[name] = tensor_json(v.tensor());
    else {
      nlohmann::json items = nlohmann::json::array();
      for (const Tensor& t : v.items) items.push_back(tensor_json(t));
      outputs[name] = items;
    }
  }
  j["outputs"] = outputs;
  nlohmann::json stages = nlohmann::json::array();
  for (const StageTiming& t : timings) {
    nlohmann::json s = {{"stage", t.stage}, {"kind", t.kind}, {"wave", t.wave}, {"load_ms", t.load_ms},
                        {"cold_ms", t.cold_ms}};
    if (!t.engine.empty()) s["engine"] = t.engine, s["model_calls"] = t.model_calls;
    if (!t.warm_ms.empty()) s["warm_ms"] = median(t.warm_ms);
    stages.push_back(s);
  }
  j["stages"] = stages;
  return j;
}

Result<pipeline::ValueMap> read_pipeline_inputs(const std::vector<std::string>& args) {
  pipeline::ValueMap inputs;
  for (const std::string& arg : args) {
    ASSIGN_OR_RETURN(auto assignment, split_assignment(arg, "--input"));
    const auto& [name, path] = assignment;
    if (path.size() > 4 && path.compare(path.size() - 4, 4, ".npy") == 0) {
      ASSIGN_OR_RETURN(Tensor t, io::read_npy_file(path));
      inputs[name] = pipeline::PipelineValue::single(std::move(t));
      continue;
    }
    ASSIGN_OR_RETURN(std::string bytes, io::read_file_bytes(path));
    ASSIGN_OR_RETURN(Tensor t, Tensor::create_for_overwrite(DataType::kUInt8, {static_cast<int64_t>(bytes.size())}));
    if (!bytes.empty()) std::memcpy(t.raw(), bytes.data(), bytes.size());
    inputs[name] = pipeline::PipelineValue::single(std::move(t));
  }
  return inputs;
}

Status write_trace(const std::string& dir, const pipeline::RunResult& result) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return io_error("--trace: cannot create '" + dir + "': " + ec.message());
  std::string summary_text;
  for (size_t s = 0; s < result.stages.size(); ++s) {
    const pipeline::StageRecord& rec = result.stages[s];
    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "%02zu_", s);
    for (const auto& [name, v] : rec.outputs)
      for (size_t i = 0; i < v.items.size(); ++i) {
        const Tensor& t = v.items[i];
        std::string base = dir + "/" + prefix + safe(rec.stage) + "." + safe(name);
        if (v.is_list) base += "." + std::to_string(i);
        std::string line = rec.stage + " " + name + (v.is_list ? "[" + std::to_string(i) + "]" : "") + " " + summary(t);
        if (t.dtype() == DataType::kString) {
          std::string text;
          for (int64_t k = 0; k < t.numel(); ++k) text += t.data<std::string>()[k] + "\n";
          TRY(io::write_file_bytes(base + ".txt", text));
        } else {
          TRY(io::write_npy_file(base + ".npy", t));
        }
        std::printf("trace: %s\n", line.c_str());
        summary_text += line + "\n";
      }
  }
  return io::write_file_bytes(dir + "/summary.txt", summary_text);
}

}  // namespace twinrt::cli
