#include "cli/bench_engines.h"

#include <chrono>
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/exit_status.h"
#include "cli/latency_stats.h"
#include "cli/progress_bar.h"
#include "engines/engine.h"

namespace twinrt::cli {
namespace {

using engines::Engine;

struct Contender {
  std::string name;
  std::unique_ptr<Engine> engine;  // null once it failed
  std::string error;
  double create_ms = 0;            // load (session creation), measured here
  int64_t peak_rss_bytes = -1;     // the engine's process beyond its start; -1 unknown (in this process)
  double first_run_ms = 0;         // measured here: includes the transfer to a runner process
  std::vector<double> samples;
  LatencySummary latency;
};

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void drop(Contender& c, const Status& status) {
  c.error = status.message();
  c.engine.reset();
  warn(c.name + " left out: " + c.error);
}

// Start, load, first run and warm-up; a failure drops the engine.
void prepare(Contender& c, const BenchEnginesFlags& f, const engines::EngineOptions& options,
             const engines::TensorMap& inputs) {
  auto engine = engines::make_engine(c.name, options);
  if (!engine) return drop(c, engine.status());
  c.engine = std::move(*engine);
  const auto load_start = std::chrono::steady_clock::now();
  if (Status st = c.engine->load(f.model); !st) return drop(c, st);
  c.create_ms = ms_since(load_start);
  const auto start = std::chrono::steady_clock::now();
  auto first = c.engine->run(inputs, {});
  c.first_run_ms = ms_since(start);
  if (!first) return drop(c, first.status());
  if (f.warmup > 0)
    if (auto warm = c.engine->time_runs(inputs, f.warmup); !warm) drop(c, warm.status());
}

Result<engines::TensorMap> tensor_inputs(const BenchEnginesFlags& f, const SessionOptions& options) {
  // Input declarations and values come from a twinrt session, as for single-engine bench.
  ASSIGN_OR_RETURN(auto session, Session::load(f.model, options));
  ASSIGN_OR_RETURN(auto bound, bind_inputs(*session, f.inputs));
  engines::TensorMap inputs;
  for (const BoundInput& b : bound) {
    if (!b.value.is_tensor())
      return invalid_argument("input '" + b.name + "' is not a tensor; --engines compares tensor inputs only");
    inputs[b.name] = b.value.tensor;
  }
  return inputs;
}

// A turn: untimed runs for at least kSettle (one at least), then the timed run. After its
// run the previous engine's worker threads keep spinning for a while (ONNX Runtime's pool:
// about 150 ms on a 2-core VM) and take cores from the next engine: with 2 threads that
// made twinrt's MobileNetV2 runs up to twice as slow as alone. Sleeping through that time
// did not help: after an idle pause the next runs are slower too (the VM's cores idle).
// Running this engine untimed meanwhile keeps its threads and cores busy, so the timed run
// sees back-to-back runs, as when the engine runs alone.
void take_turn(Contender& c, const engines::TensorMap& inputs) {
  constexpr double kSettleMs = 250;
  if (!c.engine) return;
  const auto start = std::chrono::steady_clock::now();
  do {
    auto untimed = c.engine->time_runs(inputs, 1);
    if (!untimed) return drop(c, untimed.status());
  } while (ms_since(start) < kSettleMs);
  auto ms = c.engine->time_runs(inputs, 1);
  if (!ms) return drop(c, ms.status());
  c.samples.push_back(ms->front());
}

const Contender* baseline(const std::vector<Contender>& all) {
  for (const Contender& c : all)
    if (c.engine) return &c;
  return nullptr;
}

double ratio_to(const Contender& c, const Contender& base) {
  return base.latency.p50 > 0 ? c.latency.p50 / base.latency.p50 : 0;
}

void print_text(const BenchEnginesFlags& f, const std::vector<Contender>& all) {
  const Contender* base = baseline(all);
  std::printf("model: %s\n", f.model.c_str());
  std::printf("%d runs per engine, engines taking turns (untimed runs for 250 ms, then a timed run), after %d warm-up; "
              "ratio = p50 / p50 of %s\n",
              f.runs, f.warmup, base->name.c_str());
  size_t width = 6;
  for (const Contender& c : all) width = std::max(width, c.name.size());
  std::printf("%-*s %10s %10s %10s %10s %7s %10s %9s  %s\n", static_cast<int>(width), "engine", "p50 ms", "p90 ms",
              "min ms", "mean ms", "ratio", "create ms", "peak MiB", "description");
  bool unknown_rss = false;
  for (const Contender& c : all) {
    if (!c.engine) continue;
    const LatencySummary& l = c.latency;
    char rss[32] = "-";
    if (c.peak_rss_bytes >= 0) std::snprintf(rss, sizeof rss, "%.1f", static_cast<double>(c.peak_rss_bytes) / (1 << 20));
    unknown_rss |= c.peak_rss_bytes < 0;
    std::printf("%-*s %10.4g %10.4g %10.4g %10.4g %6.2fx %10.4g %9s  %s\n", static_cast<int>(width), c.name.c_str(),
                l.p50, l.p90, l.min, l.mean, ratio_to(c, *base), c.create_ms, rss, c.engine->description().c_str());
  }
  std::printf("peak MiB: the engine's process beyond its start (Node's runner: minus Node alone)%s\n",
              unknown_rss ? "; '-': engines in this process or a browser (twinrt's own: `twinrt bench MODEL` "
                            "without --engines)"
                          : "");
  for (const Contender& c : all)
    if (!c.engine) std::printf("%-*s left out: %s\n", static_cast<int>(width), c.name.c_str(), c.error.c_str());
}

void print_json(const BenchEnginesFlags& f, const std::vector<Contender>& all) {
  const Contender* base = baseline(all);
  nlohmann::json engines = nlohmann::json::array(), failed = nlohmann::json::array();
  for (const Contender& c : all) {
    if (!c.engine) {
      failed.push_back({{"name", c.name}, {"error", c.error}});
      continue;
    }
    const LatencySummary& l = c.latency;
    engines.push_back({{"name", c.name},
                       {"description", c.engine->description()},
                       {"session_create_ms", c.create_ms},
                       {"peak_rss_bytes", c.peak_rss_bytes},
                       {"first_run_ms", c.first_run_ms},
                       {"latency_ms", {{"p50", l.p50}, {"p90", l.p90}, {"p99", l.p99}, {"min", l.min},
                                       {"mean", l.mean}, {"max", l.max}}},
                       {"ratio_p50", ratio_to(c, *base)}});
  }
  const nlohmann::json j = {{"model", f.model}, {"runs", f.runs},          {"warmup", f.warmup},
                            {"baseline", base->name}, {"engines", engines}, {"failed", failed}};
  std::printf("%s\n", j.dump().c_str());
}

}  // namespace

Result<std::vector<std::string>> split_engine_list(const std::string& list) {
  std::vector<std::string> names;
  size_t begin = 0;
  while (true) {
    const size_t comma = list.find(',', begin);
    const std::string item = list.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
    if (item.empty()) return invalid_argument("--engines expects names separated by commas, got '" + list + "'");
    names.push_back(item);
    if (comma == std::string::npos) return names;
    begin = comma + 1;
  }
}

int bench_engines(const BenchEnginesFlags& f) {
  auto options = to_session_options(f.session);
  if (!options) return report_error(options.status());
  options->mode = Mode::kDefault;
  auto inputs = tensor_inputs(f, *options);
  if (!inputs) return report_error(inputs.status());
  engines::EngineOptions engine_options;
  engine_options.threads = options->threads;
  engine_options.dim_overrides = options->dim_overrides;
  engine_options.isa = options->isa;
  if (!f.graph_optimization.empty()) engine_options.graph_optimization = f.graph_optimization;

  std::vector<Contender> all;
  for (const std::string& name : f.engines) {
    all.push_back(Contender{name, nullptr, "", 0, -1, 0, {}, {}});
    prepare(all.back(), f, engine_options, *inputs);
  }
  // One timed run per engine per round, each in a turn of its own (see take_turn). The turns
  // make a long command of a large --runs: 2000 runs of two engines take about 17 minutes.
  const ProgressBar bar = make_progress_bar("bench", f.progress);
  const auto start = std::chrono::steady_clock::now();
  for (int round = 0; round < f.runs; ++round) {
    for (Contender& c : all) take_turn(c, *inputs);
    if (bar) {
      const double left_s = ms_since(start) / 1000.0 * (f.runs - round - 1) / (round + 1);
      bar(static_cast<size_t>(round + 1), static_cast<size_t>(f.runs),
          "round " + std::to_string(round + 1) + " of " + std::to_string(f.runs) + ", about " +
              std::to_string(static_cast<int64_t>(left_s + 0.5)) + " s left");
    }
  }
  for (Contender& c : all) {
    c.latency = summarize_latencies(c.samples);
    if (!c.engine) continue;
    auto rss = c.engine->peak_rss_bytes();
    c.peak_rss_bytes = rss ? *rss : -1;
  }
  if (!baseline(all)) return report_error(Status(StatusCode::kUnavailable, "no engine could be benchmarked"));
  if (f.json) print_json(f, all);
  else print_text(f, all);
  return kExitOk;
}

}  // namespace twinrt::cli
