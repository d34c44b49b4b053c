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

// The stage's output ports, by the value names they write.
Status keep_outputs(const StageSpec& s, ValueMap& out, StageRecord& record) {
  for (const auto& [port, value] : s.outputs) {
    auto it = out.find(port);
    if (it == out.end()) return internal_error("wrote no output '" + port + "'");
    record.outputs[value] = std::move(it->second);
  }
  return Status::ok();
}

ValueMap stage_inputs(const StageSpec& s, const ValueMap& values) {
  ValueMap inputs;
  for (const auto& [port, value] : s.inputs) inputs[port] = values.at(value);
  return inputs;
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
  bool host = false;  // a model stage the caller runs (start/resume)
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
  p->parallel_ = options.parallel.value_or(p->spec_.parallel) && options.host_stages.empty();
#endif
  for (const std::string& name : options.host_stages) {
    auto& stages = p->spec_.stages;
    auto it = std::find_if(stages.begin(), stages.end(), [&](const StageSpec& s) { return s.name == name; });
    if (it == stages.end()) return invalid_argument("host stage '" + name + "': the pipeline has no such stage");
    if (!it->is_model()) return invalid_argument("host stage '" + name + "': not a model stage");
  }
  for (const StageSpec& s : p->spec_.stages) {
    auto stage = std::make_unique<Stage>();
    stage->spec = &s;
    const auto start = std::chrono::steady_clock::now();
    const std::string context = "stage '" + s.name + "': ";
    const auto& host = options.host_stages;
    if (std::find(host.begin(), host.end(), s.name) != host.end()) {
      stage->host = true;
    } else if (s.is_model()) {
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

// A model stage's runs: one call unmapped, or the items in batches of equal shapes.
struct Pipeline::ModelPlan {
  struct Call {
    TensorMap feeds;
    std::vector<size_t> items;  // mapped: the items it carries, in order
    std::vector<int64_t> rows;  // their rows in the batch (dim 0 of each)
  };
  std::vector<Call> calls;
  std::optional<size_t> items;  // mapped: the item count
};

struct Pipeline::ActiveRun {
  ValueMap values;
  DimBindings bindings;
  RunResult result;
  size_t next = 0;  // the stage to run next
  std::chrono::steady_clock::time_point start;
  // The host stage the run is stopped at.
  ModelPlan pending;
  std::chrono::steady_clock::time_point pending_since;
};

Result<Pipeline::ModelPlan> Pipeline::plan_model(const StageSpec& s, const ValueMap& inputs) const {
  ModelPlan plan;
  if (!s.map) {
    ModelPlan::Call call;
    for (const auto& [port, v] : inputs) {
      if (v.is_list) return invalid_argument("model input '" + port + "' got " + v.describe() + " (set \"map\": true)");
      call.feeds[port] = v.tensor();
    }
    plan.calls.push_back(std::move(call));
    return plan;
  }
  ASSIGN_OR_RETURN(size_t n, item_count(inputs));
  plan.items = n;
  // Items whose inputs have the same shapes share a batch (in order of first appearance).
  std::vector<std::string> keys(n);
  std::vector<std::string> key_order;
  for (size_t i = 0; i < n; ++i) {
    for (const auto& [port, v] : inputs) keys[i] += shape_to_string(v.is_list ? v.items[i].shape() : v.tensor().shape());
    if (std::find(key_order.begin(), key_order.end(), keys[i]) == key_order.end()) key_order.push_back(keys[i]);
  }
  for (const std::string& key : key_order) {
    std::vector<size_t> members;
    for (size_t i = 0; i < n; ++i)
      if (keys[i] == key) members.push_back(i);
    for (size_t begin = 0; begin < members.size(); begin += static_cast<size_t>(s.batch)) {
      ModelPlan::Call call;
      call.items.assign(members.begin() + begin, members.begin() + std::min(members.size(), begin + static_cast<size_t>(s.batch)));
      for (const auto& [port, v] : inputs) {
        std::vector<Tensor> parts;
        for (size_t item : call.items) parts.push_back(v.is_list ? v.items[item] : v.tensor());
        if (parts.size() == 1) {
          call.feeds[port] = parts[0];
        } else {
          ASSIGN_OR_RETURN(call.feeds[port], concat_batch(parts));
        }
        if (call.rows.empty())
          for (const Tensor& t : parts) call.rows.push_back(t.rank() ? t.dim(0) : 1);
      }
      plan.calls.push_back(std::move(call));
    }
  }
  return plan;
}

Result<ValueMap> Pipeline::gather_model(const StageSpec& s, const ModelPlan& plan, std::vector<TensorMap> outputs) const {
  if (outputs.size() != plan.calls.size())
    return invalid_argument("expected the outputs of " + std::to_string(plan.calls.size()) + " model calls, got " +
                            std::to_string(outputs.size()));
  std::map<std::string, std::vector<Tensor>> per_port;
  for (const auto& [port, value] : s.outputs) per_port[port].resize(plan.items.value_or(1));
  for (size_t c = 0; c < plan.calls.size(); ++c) {
    const ModelPlan::Call& call = plan.calls[c];
    for (auto& [port, items] : per_port) {
      auto it = outputs[c].find(port);
      if (it == outputs[c].end()) return internal_error("the model returned no output '" + port + "'");
      if (!plan.items) {
        items[0] = std::move(it->second);
        continue;
      }
      std::vector<Tensor> parts;
      if (call.rows.size() == 1) {
        parts.push_back(std::move(it->second));
      } else {
        ASSIGN_OR_RETURN(parts, split_batch(it->second, call.rows));
      }
      for (size_t m = 0; m < call.items.size(); ++m) items[call.items[m]] = std::move(parts[m]);
    }
  }
  ValueMap result;
  for (auto& [port, items] : per_port)
    result[port] = plan.items ? PipelineValue::list(std::move(items)) : PipelineValue::single(std::move(items[0]));
  return result;
}

Result<ValueMap> Pipeline::run_model(Stage& stage, const ValueMap& inputs, int& calls) {
  const StageSpec& s = *stage.spec;
  std::vector<std::string> wanted;
  for (const auto& [port, value] : s.outputs) wanted.push_back(port);
  ASSIGN_OR_RETURN(ModelPlan plan, plan_model(s, inputs));
  std::vector<TensorMap> outputs;
  for (const ModelPlan::Call& call : plan.calls) {
    ++calls;
    ASSIGN_OR_RETURN(TensorMap out, stage.runner->run(call.feeds, wanted));
    outputs.push_back(std::move(out));
  }
  return gather_model(s, plan, std::move(outputs));
}

Result<StageRecord> Pipeline::run_stage(Stage& stage, const ValueMap& values) {
  const StageSpec& s = *stage.spec;
  const ValueMap inputs = stage_inputs(s, values);
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
  TRY(keep_outputs(s, out, record));
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

Result<Pipeline::ActiveRun> Pipeline::begin(const ValueMap& inputs) {
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
  ActiveRun run;
  for (const auto& name : spec_.inputs) {
    auto it = given.find(name);
    if (it == given.end()) return invalid_argument("pipeline input '" + name + "' was not given");
    if (auto c = spec_.contracts.find(name); c != spec_.contracts.end())
      TRY(check_contract(c->second, name, it->second, run.bindings).with_context("pipeline input: "));
    run.values[name] = it->second;
  }
  run.start = std::chrono::steady_clock::now();
  return run;
}

Status Pipeline::accept(ActiveRun& run, size_t stage, Result<StageRecord> record) {
  const std::string context = "stage '" + stages_[stage]->spec->name + "': ";
  if (!record) return record.status().with_context(context);
  for (const auto& [name, v] : record->outputs) {
    if (auto c = spec_.contracts.find(name); c != spec_.contracts.end())
      TRY(check_contract(c->second, name, v, run.bindings).with_context(context + "contract violated: "));
    run.values[name] = v;
  }
  run.result.stages.push_back(std::move(record).value());
  return Status::ok();
}

Result<RunProgress> Pipeline::advance(ActiveRun& run) {
  // A group is one stage, or with parallel a whole wave. Its records are checked in stage
  // order once all have run, so the first error in that order is reported either way.
  while (run.next < stages_.size()) {
    const size_t begin = run.next;
    const Stage& first = *stages_[begin];
    if (first.host) {
      const StageSpec& s = *first.spec;
      auto plan = plan_model(s, stage_inputs(s, run.values));
      if (!plan) return plan.status().with_context("stage '" + s.name + "': ");
      run.pending = std::move(plan).value();
      run.pending_since = std::chrono::steady_clock::now();
      HostRequest request{s.name, {}, {}};
      for (const auto& call : run.pending.calls) request.calls.push_back(call.feeds);
      for (const auto& [port, value] : s.outputs) request.outputs.push_back(port);
      return RunProgress{std::move(request), {}};
    }
    size_t end = begin + 1;
    if (parallel_)
      while (end < stages_.size() && stages_[end]->spec->wave == first.spec->wave) ++end;
    std::vector<Result<StageRecord>> records = run_group(begin, end, run.values);
    for (size_t k = 0; k < records.size(); ++k) TRY(accept(run, begin + k, std::move(records[k])));
    run.next = end;
  }
  run.result.ms = ms_since(run.start);
  for (const auto& name : spec_.outputs) run.result.outputs[name] = run.values.at(name);
  for (const StateSpec& s : spec_.state) carried_[s.to] = run.values.at(s.from);
  return RunProgress{std::nullopt, std::move(run.result)};
}

Result<RunResult> Pipeline::run(const ValueMap& inputs) {
  for (const auto& stage : stages_)
    if (stage->host)
      return invalid_argument("stage '" + stage->spec->name + "' is run by the host: use start() and resume()");
  ASSIGN_OR_RETURN(ActiveRun run, begin(inputs));
  ASSIGN_OR_RETURN(RunProgress progress, advance(run));
  return std::move(progress.result);
}

Result<RunProgress> Pipeline::guard(Result<RunProgress> progress) {
  if (!progress || !progress->request) active_.reset();
  return progress;
}

Result<RunProgress> Pipeline::start(const ValueMap& inputs) {
  active_.reset();
  auto run = begin(inputs);
  if (!run) return run.status();
  active_ = std::make_unique<ActiveRun>(std::move(run).value());
  return guard(advance(*active_));
}

Result<RunProgress> Pipeline::resume(std::vector<TensorMap> outputs) {
  if (!active_) return invalid_argument("no run is waiting for a host stage");
  ActiveRun& run = *active_;
  Stage& stage = *stages_[run.next];
  const StageSpec& s = *stage.spec;
  auto record = [&]() -> Result<StageRecord> {
    StageRecord r;
    r.stage = s.name;
    r.ms = ms_since(run.pending_since);
    r.model_calls = static_cast<int>(run.pending.calls.size());
    ASSIGN_OR_RETURN(ValueMap out, gather_model(s, run.pending, std::move(outputs)));
    TRY(keep_outputs(s, out, r));
    return r;
  }();
  run.pending = {};
  Status st = accept(run, run.next, std::move(record));
  if (!st.is_ok()) return guard(st);
  ++run.next;
  return guard(advance(run));
}

}  // namespace twinrt::pipeline
