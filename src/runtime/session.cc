#include <algorithm>
#include <cstdlib>
#include <optional>
#include <thread>

#include "ir/memory_budget.h"
#include "onnx/loader.h"
#include "passes/passes.h"
#include "runtime/execute.h"
#include "runtime/feed_check.h"
#include "runtime/model_checks.h"
#include "runtime/session_impl.h"
#include "runtime/size_checks.h"

namespace twinrt {

namespace {

// The names of an option enum's values, in the order error messages list them.
template <class E>
struct Named {
  E value;
  const char* name;
};
constexpr Named<Mode> kModeNames[] = {{Mode::kDefault, "default"}, {Mode::kExact, "exact"},
                                      {Mode::kReference, "reference"}};
constexpr Named<Isa> kIsaNames[] = {
    {Isa::kAuto, "auto"}, {Isa::kAvx512, "avx512"}, {Isa::kAvx2, "avx2"}, {Isa::kScalar, "scalar"}};
constexpr Named<OptimizationLevel> kOptimizationNames[] = {
    {OptimizationLevel::kNone, "none"}, {OptimizationLevel::kBasic, "basic"}, {OptimizationLevel::kAll, "all"}};

template <class E, size_t N>
const char* name_of(const Named<E> (&names)[N], E value) {
  for (const Named<E>& n : names)
    if (n.value == value) return n.name;
  return "?";
}

// Unknown names are an error listing the known ones: "(expected a, b or c)".
template <class E, size_t N>
Result<E> parse_named(const Named<E> (&names)[N], const std::string& name, const std::string& what) {
  std::string known;
  for (size_t i = 0; i < N; ++i) {
    if (name == names[i].name) return names[i].value;
    known += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + names[i].name;
  }
  return invalid_argument("unknown " + what + " '" + name + "' (expected " + known + ")");
}

}  // namespace

const char* mode_name(Mode m) { return name_of(kModeNames, m); }
Result<Mode> parse_mode(const std::string& name) { return parse_named(kModeNames, name, "mode"); }

const char* isa_name(Isa isa) { return name_of(kIsaNames, isa); }
Result<Isa> parse_isa(const std::string& name) { return parse_named(kIsaNames, name, "ISA"); }

const char* optimization_name(OptimizationLevel level) { return name_of(kOptimizationNames, level); }
Result<OptimizationLevel> parse_optimization(const std::string& name) {
  return parse_named(kOptimizationNames, name, "optimization level");
}

std::string IoInfo::describe() const {
  std::string s = dtype_name(dtype);
  if (type != "tensor") s = type + "(" + s + ")";
  if (!has_shape) return s;
  s += "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ",";
    if (dims[i] >= 0) s += std::to_string(dims[i]);
    else s += dim_names[i].empty() ? "?" : dim_names[i];
  }
  return s + "]";
}

IoInfo io_info(const ir::ValueInfo& v) {
  IoInfo info;
  info.name = v.name;
  const ir::TypeInfo* t = &v.type;
  switch (t->kind) {
    case ir::TypeInfo::Kind::kTensor: info.type = "tensor"; break;
    case ir::TypeInfo::Kind::kSequence: info.type = "sequence"; break;
    case ir::TypeInfo::Kind::kOptional: info.type = "optional"; break;
    case ir::TypeInfo::Kind::kMap: info.type = "map"; break;
    case ir::TypeInfo::Kind::kSparseTensor: info.type = "sparse_tensor"; break;
    case ir::TypeInfo::Kind::kUnknown: info.type = "unknown"; break;
  }
  while (t->inner) t = t->inner.get();
  info.dtype = t->elem;
  if (t->shape) {
    info.has_shape = true;
    for (const ir::Dim& d : *t->shape) {
      info.dims.push_back(d.value);
      info.dim_names.push_back(d.symbol);
    }
  }
  return info;
}

Result<std::unique_ptr<SessionImpl>> SessionImpl::create(ir::Model model, const SessionOptions& options,
                                                         bool owns_model_bytes) {
  if (options.threads < 0 || options.threads > kMaxThreads)
    return invalid_argument("threads must be between 0 (all hardware threads) and " +
                            std::to_string(kMaxThreads) + ", got " + std::to_string(options.threads));
  auto s = std::unique_ptr<SessionImpl>(new SessionImpl());
  s->model_ = std::move(model);
  s->options_ = options;
  s->limits_ = current_limits();
  TRY(inline_functions(s->model_));
  // The checks of a node's own form run before the passes merge nodes, so that their errors
  // name the model's nodes (and a fused node cannot keep one value of an attribute given
  // twice); compiling repeats them for nested graphs.
  TRY(check_graph_names(*s->model_.graph));
  for (const ir::Node& n : s->model_.graph->nodes) TRY(check_duplicate_attributes(n));
  passes::optimize(s->model_, options.optimization, options.mode);
  CompileOptions copts{options.mode, options.dim_overrides, options.isa, options.lenient, &s->warnings_};
  copts.release_kept_constants = owns_model_bytes;
  copts.value_changing_kernels = options.optimization == OptimizationLevel::kAll;
  {
    // Weights packed at compile time count against the limits too.
    BudgetScope scope(std::make_shared<MemoryBudget>(s->limits_, 0));
    ASSIGN_OR_RETURN(s->plan_, compile_model(s->model_, copts));
  }
  TRY(check_declared_sizes(*s->plan_, s->limits_));
  s->weights_bytes_ = constant_bytes(*s->plan_);
  int threads = options.threads == 0 ? static_cast<int>(std::thread::hardware_concurrency()) : options.threads;
  ASSIGN_OR_RETURN(s->pool_, ThreadPool::create(std::clamp(threads, 1, kMaxThreads)));
  const char* arena = std::getenv("TWINRT_ARENA");  // "0": heap only (to measure the difference)
  if (!arena || std::string(arena) != "0") s->arena_ = std::make_unique<ArenaCache>();
  for (const auto& in : s->plan_->inputs) s->inputs_.push_back(io_info(in));
  for (const auto& out : s->plan_->outputs) s->outputs_.push_back(io_info(out));
  return s;
}

Result<std::map<std::string, Value>> SessionImpl::run(const std::map<std::string, Value>& feeds) const {
  const Subgraph& g = *plan_;
  std::vector<Value> inputs(g.inputs.size());
  std::vector<std::pair<int, Value>> overrides;
  size_t used = 0;
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    auto it = feeds.find(g.inputs[i].name);
    if (it == feeds.end()) return invalid_argument("input '" + g.inputs[i].name + "' was not given");
    ASSIGN_OR_RETURN(inputs[i], conform_feed(g.inputs[i].type, it->second, "input '" + g.inputs[i].name + "'"));
    ++used;
  }
  for (const auto& [name, slot] : g.overridable) {
    auto it = feeds.find(name);
    if (it == feeds.end()) continue;
    ASSIGN_OR_RETURN(Value v, conform_feed(g.slot_types[static_cast<size_t>(slot)], it->second, "input '" + name + "'"));
    overrides.emplace_back(slot, std::move(v));
    ++used;
  }
  if (used != feeds.size())
    for (const auto& [name, v] : feeds) {
      bool known = false;
      for (const auto& in : g.inputs) known |= in.name == name;
      for (const auto& [n, s] : g.overridable) known |= n == name;
      if (!known) return invalid_argument("the model has no input named '" + name + "'");
    }
  ASSIGN_OR_RETURN(uint64_t feed_bytes, check_feed_sizes(feeds, g, limits_));
  // Every value this run makes is charged against what the weights and feeds leave.
  BudgetScope scope(std::make_shared<MemoryBudget>(limits_, weights_bytes_ + feed_bytes));
  ExecOptions eo{options_.mode, pool_.get()};
  // The first run with these input shapes records where its values live and die; later
  // ones place them in an arena of their own (arena.h).
  const std::string key = arena_ ? arena_key(inputs, overrides) : std::string();
  ArenaCache::Lease lease;
  std::optional<ArenaRecorder> recorder;
  if (!key.empty()) {
    lease = arena_->acquire(key);
    if (!lease.plan) recorder.emplace(g);
  }
  std::vector<double> step_ms;
  if (options_.profile) {
    step_ms.assign(g.steps.size(), 0.0);
    eo.step_ms = &step_ms;
  }
  auto executed = [&]() -> Result<std::vector<Value>> {
    if (!lease.buffer) {
      eo.recorder = recorder ? &*recorder : nullptr;
      return execute(g, std::move(inputs), {}, eo, std::move(overrides));
    }
    ArenaRun arena(lease.plan, lease.buffer);
    eo.arena = &arena;
    return execute(g, std::move(inputs), {}, eo, std::move(overrides));
  }();
  if (lease.buffer) arena_->release(key, std::move(lease.buffer));
  ASSIGN_OR_RETURN(auto outs, std::move(executed));
  if (recorder) arena_->store(key, recorder->finish());
  if (options_.profile) {
    std::lock_guard<std::mutex> lock(profile_mutex_);
    step_ms_.resize(step_ms.size());
    for (size_t i = 0; i < step_ms.size(); ++i) step_ms_[i] += step_ms[i];
    ++profiled_runs_;
  }
  std::map<std::string, Value> result;
  for (size_t i = 0; i < outs.size(); ++i) result[g.outputs[i].name] = std::move(outs[i]);
  return result;
}

SessionProfile SessionImpl::profile() const {
  SessionProfile p;
  std::lock_guard<std::mutex> lock(profile_mutex_);
  p.runs = profiled_runs_;
  for (size_t i = 0; i < step_ms_.size(); ++i) {
    const ir::Node& node = *plan_->steps[i].node;
    NodeTime t{node.name, node.op_type, step_ms_[i]};
    for (const std::string& name : node.fused_from) t.node += "+" + name;
    p.nodes.push_back(std::move(t));
  }
  return p;
}

Session::Session(std::unique_ptr<SessionImpl> impl) : impl_(std::move(impl)) {}
Session::~Session() = default;

Result<std::unique_ptr<Session>> Session::load(const std::string& path, const SessionOptions& options) {
  ASSIGN_OR_RETURN(ir::Model model, onnx::load_model_file(path, current_limits()));
  ASSIGN_OR_RETURN(auto impl, SessionImpl::create(std::move(model), options, /*owns_model_bytes=*/true));
  return std::unique_ptr<Session>(new Session(std::move(impl)));
}

Result<std::unique_ptr<Session>> Session::load_bytes(const void* data, size_t size,
                                                     const SessionOptions& options) {
  onnx::LoadOptions load_options;
  load_options.limits = current_limits();
  ASSIGN_OR_RETURN(ir::Model model, onnx::load_model_bytes(data, size, load_options));
  ASSIGN_OR_RETURN(auto impl, SessionImpl::create(std::move(model), options));
  return std::unique_ptr<Session>(new Session(std::move(impl)));
}

const std::vector<IoInfo>& Session::inputs() const { return impl_->inputs(); }
const std::vector<IoInfo>& Session::outputs() const { return impl_->outputs(); }
const SessionOptions& Session::options() const { return impl_->options(); }
const std::vector<std::string>& Session::warnings() const { return impl_->warnings(); }

Result<std::map<std::string, Value>> Session::run(const std::map<std::string, Value>& feeds) const {
  return impl_->run(feeds);
}

SessionProfile Session::profile() const { return impl_->profile(); }

}  // namespace twinrt
