#include "pipeline/pipeline.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <system_error>
#include <thread>

#include "io/file_io.h"
#include "pipeline/batching.h"

namespace twinrt::pipeline {
namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The number of items a mapped stage runs over: every list input must have it.
Result<size_t> item_count(const ValueMap& inputs) {
  std::optional<size_t> n;
  std::string first;
  for (const auto& [port, v] : inputs) {
    if (!v.is_list) continue;
    if (n && *n != v.items.size())
      return invalid_argument("\"map\": list inputs differ in length ('" + first + "' has " + std::to_string(*n) +
                              " items, '" + port + "' " + std::to_string(v.items.size()) + ")");
    n = v.items.size();
    first = port;
  }
  if (!n) return invalid_argument("\"map\": true, but no input is a list");
  return *n;
}

// Runs `fn` on a new thread added to `threads`, or right here when none can be started
// (only speed changes). The WebAssembly build has no threads for this.
void start_thread(std::vector<std::thread>& threads, const std::function<void()>& fn) {
#ifndef __EMSCRIPTEN__
  try {
    threads.emplace_back(fn);
    return;
  } catch (const std::system_error&) {
  }
#else
  (void)threads;
#endif
  fn();
}

// Session threads for a model stage: "threads": 0 (all hardware threads) is divided among
// the model stages of its wave when they run concurrently, so they do not each start a
// thread per core. An explicit count is kept as written.
SessionOptions stage_session(const StageSpec& stage, const std::vector<StageSpec>& stages, bool parallel) {
  SessionOptions options = stage.session;
  if (!parallel || options.threads != 0) return options;
  const int models = static_cast<int>(std::count_if(stages.begin(), stages.end(), [&](const StageSpec& s) {
    return s.is_model() && s.wave == stage.wave;
  }));
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (models > 1) options.threads = std::max(1, cores / models);
  return options;
}

ValueMap item_inputs(const ValueMap& inputs, size_t i) {
  ValueMap item;
  for (const auto& [port, v] : inputs) item[port] = v.is_list ? PipelineValue::single(v.items[i]) : v;
  return item;
}

}  // namespace

struct Pipeline::Stage {
  const StageSpec* spec = nullptr;
  std::unique_ptr<Step> step;
  std::unique_ptr<ModelRunner> runner;
};

Pipeline::~Pipeline() = default;

std::string Pipeline::engine_of(const StageSpec& stage) const {
  return engine_override_.empty() ? stage.engine : engine_override_;
}

Result<std::unique_ptr<Pipeline>> Pipeline::load(const std::string& path, const PipelineOptions& options) {
  ASSIGN_OR_RETURN(PipelineSpec spec, load_pipeline_file(path));
  return create(std::move(spec), options);
}

Result<std::unique_ptr<Pipeline>> Pipeline::create(PipelineSpec spec, const PipelineOptions& options) {
  std::unique_ptr<Pipeline> p(new Pipeline());
  p->spec_ = std::move(spec);
  p->engine_override_ = options.engine;
#ifndef __EMSCRIPTEN__
  p->parallel_ = options.parallel.value_or(p->spec_.parallel);
#endif
  for (const StageSpec& s : p->spec_.stages) {
    auto stage = std::make_unique<Stage>();
    stage->spec = &s;
    const auto start = std::chrono::steady_clock::now();
    const std::string context = "stage '" + s.name + "': ";
    if (s.is_model()) {
      auto runner = options.runner_factory(s.model_path, p->engine_of(s), stage_session(s, p->spec_.stages, p->parallel_));
      if (!runner) return runner.status().with_context(context);
      const std::vector<std::string> names = (*runner)->output_names();
      for (const auto& [port, value] : s.outputs)
        if (!names.empty() && std::find(names.begin(), names.end(), port) == names.end())
          return invalid_argument(context + "the model has no output '" + port + "'");
      stage->runner = std::move(runner).value();
    } else {
      auto step = find_step(s.step)->create(s.params, StepContext{p->spec_.base_dir, s.name});
      if (!step) return step.status().with_context(context + "step '" + s.step + "': ");
      stage->step = std::move(step).value();
    }
    p->load_ms_.push_back(ms_since(start));
    p->stages_.push_back(std::move(stage));
  }
  return p;
}

Result<ValueMap> Pipeline::run_model(Stage& stage, const ValueMap& inputs, int& calls) {
  const StageSpec& s = *stage.spec;
  std::vector<std::string> wanted;
  for (const auto& [port, value] : s.outputs) wanted.push_back(port);
  auto pick_outputs = [&](TensorMap&& out) -> Result<TensorMap> {
    TensorMap picked;
    for (const auto& [port, value] : s.outputs) {
      auto it = out.find(port);
      if (it == out.end()) return internal_error("the model returned no output '" + port + "'");
      picked[port] = std::move(it->second);
    }
    return picked;
  };
  if (!s.map) {
    TensorMap feeds;
    for (const auto& [port, v] : inputs) {
      if (v.is_list) return invalid_argument("model input '" + port + "' got " + v.describe() + " (set \"map\": true)");
      feeds[port] = v.tensor();
    }
    ++calls;
    ASSIGN_OR_RETURN(TensorMap out, stage.runner->run(feeds, wanted));
    ASSIGN_OR_RETURN(TensorMap picked, pick_outputs(std::move(out)));
    ValueMap result;
    for (auto& [port, t] : picked) result[port] = PipelineValue::single(std::move(t));
    return result;
  }
  ASSIGN_OR_RETURN(size_t n, item_count(inputs));
  // Items whose inputs have the same shapes share a batch (in order of first appearance).
  std::vector<std::string> keys(n);
  std::vector<std::string> key_order;
  for (size_t i = 0; i < n; ++i) {
    for (const auto& [port, v] : inputs) keys[i] += shape_to_string(v.is_list ? v.items[i].shape() : v.tensor().shape());
    if (std::find(key_order.begin(), key_order.end(), keys[i]) == key_order.end()) key_order.push_back(keys[i]);
  }
  std::map<std::string, std::vector<Tensor>> per_port_outputs;
  for (const auto& [port, value] : s.outputs) per_port_outputs[port].resize(n);
  for (const std::string& key : key_order) {
    std::vector<size_t> members;
    for (size_t i = 0; i < n; ++i)
      if (keys[i] == key) members.push_back(i);
    for (size_t begin = 0; begin < members.size(); begin += static_cast<size_t>(s.batch)) {
      const size_t end = std::min(members.size(), begin + static_cast<size_t>(s.batch));
      TensorMap feeds;
      std::vector<int64_t> rows;
      for (const auto& [port, v] : inputs) {
        std::vector<Tensor> parts;
        for (size_t m = begin; m < end; ++m) parts.push_back(v.is_list ? v.items[members[m]] : v.tensor());
        if (parts.size() == 1) {
          feeds[port] = parts[0];
        } else {
          ASSIGN_OR_RETURN(feeds[port], concat_batch(parts));
        }
        if (rows.empty())
          for (const Tensor& t : parts) rows.push_back(t.rank() ? t.dim(0) : 1);
      }
      ++calls;
      ASSIGN_OR_RETURN(TensorMap out, stage.runner->run(feeds, wanted));
      ASSIGN_OR_RETURN(TensorMap picked, pick_outputs(std::move(out)));
      for (auto& [port, t] : picked) {
        std::vector<Tensor> parts;
        if (rows.size() == 1) {
          parts.push_back(std::move(t));
        } else {
          ASSIGN_OR_RETURN(parts, split_batch(t, rows));
        }
        for (size_t m = begin; m < end; ++m) per_port_outputs[port][members[m]] = std::move(parts[m - begin]);
      }
    }
  }
  ValueMap result;
  for (auto& [port, items] : per_port_outputs) result[port] = PipelineValue::list(std::move(items));
  return result;
}

Result<StageRecord> Pipeline::run_stage(Stage& stage, const ValueMap& values) {
  const StageSpec& s = *stage.spec;
  ValueMap inputs;
  for (const auto& [port, value] : s.inputs) inputs[port] = values.at(value);
  StageRecord record;
  record.stage = s.name;
  const auto start = std::chrono::steady_clock::now();
  ValueMap out;
  if (stage.runner) {
    ASSIGN_OR_RETURN(out, run_model(stage, inputs, record.model_calls));
  } else if (!s.map) {
    ASSIGN_OR_RETURN(out, stage.step->run(inputs));
  } else {
    ASSIGN_OR_RETURN(size_t n, item_count(inputs));
    for (const auto& [port, value] : s.outputs) out[port] = PipelineValue::list({});
    for (size_t i = 0; i < n; ++i) {
      auto item = stage.step->run(item_inputs(inputs, i));
      if (!item) return item.status().with_context("item " + std::to_string(i) + ": ");
      for (auto& [port, v] : *item) {
        if (v.is_list) return internal_error("a mapped step returned a list for '" + port + "'");
        out[port].items.push_back(std::move(v.items.front()));
      }
    }
  }
  record.ms = ms_since(start);
  for (const auto& [port, value] : s.outputs) {
    auto it = out.find(port);
    if (it == out.end()) return internal_error("wrote no output '" + port + "'");
    record.outputs[value] = std::move(it->second);
  }
  return record;
}

std::vector<Result<StageRecord>> Pipeline::run_group(size_t begin, size_t end, const ValueMap& values) {
  std::vector<std::optional<Result<StageRecord>>> slots(end - begin);
  auto run_one = [&](size_t k) { slots[k].emplace(run_stage(*stages_[begin + k], values)); };
  std::vector<std::thread> threads;
  for (size_t k = 1; k < slots.size(); ++k) start_thread(threads, [&run_one, k] { run_one(k); });
  run_one(0);  // the caller takes the first stage
  for (std::thread& t : threads) t.join();
  std::vector<Result<StageRecord>> records;
  for (auto& slot : slots) records.push_back(std::move(*slot));
  return records;
}

Result<RunResult> Pipeline::run(const ValueMap& inputs) {
  for (const auto& [name, v] : inputs)
    if (std::find(spec_.inputs.begin(), spec_.inputs.end(), name) == spec_.inputs.end())
      return invalid_argument("the pipeline has no input '" + name + "'");
  ValueMap given = inputs;
  for (const StateSpec& s : spec_.state) {
    if (given.count(s.to)) continue;
    if (auto it = carried_.find(s.to); it != carried_.end()) {
      given[s.to] = it->second;
    } else {
      ASSIGN_OR_RETURN(Tensor zeros, Tensor::create(s.dtype, s.shape));
      given[s.to] = PipelineValue::single(std::move(zeros));
    }
  }
  DimBindings bindings;
  ValueMap values;
  for (const auto& name : spec_.inputs) {
    auto it = given.find(name);
    if (it == given.end()) return invalid_argument("pipeline input '" + name + "' was not given");
    if (auto c = spec_.contracts.find(name); c != spec_.contracts.end())
      TRY(check_contract(c->second, name, it->second, bindings).with_context("pipeline input: "));
    values[name] = it->second;
  }
  RunResult result;
  const auto start = std::chrono::steady_clock::now();
  // A group is one stage, or with parallel a whole wave. Its records are checked in stage
  // order once all have run, so the first error in that order is reported either way.
  for (size_t begin = 0, end = 0; begin < stages_.size(); begin = end) {
    end = begin + 1;
    if (parallel_)
      while (end < stages_.size() && stages_[end]->spec->wave == stages_[begin]->spec->wave) ++end;
    std::vector<Result<StageRecord>> records = run_group(begin, end, values);
    for (size_t k = 0; k < records.size(); ++k) {
      const std::string context = "stage '" + stages_[begin + k]->spec->name + "': ";
      Result<StageRecord>& record = records[k];
      if (!record) return record.status().with_context(context);
      for (const auto& [name, v] : record->outputs) {
        if (auto c = spec_.contracts.find(name); c != spec_.contracts.end())
          TRY(check_contract(c->second, name, v, bindings).with_context(context + "contract violated: "));
        values[name] = v;
      }
      result.stages.push_back(std::move(record).value());
    }
  }
  result.ms = ms_since(start);
  for (const auto& name : spec_.outputs) result.outputs[name] = values.at(name);
  for (const StateSpec& s : spec_.state) carried_[s.to] = values.at(s.from);
  return result;
}

}  // namespace twinrt::pipeline
