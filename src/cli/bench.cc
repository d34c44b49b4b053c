// `twinrt bench MODEL`: session creation time, first-run time, steady-state latency
// percentiles, throughput and peak memory. Inputs are random unless given.
// With --engines A,B,...: the same figures side by side for several engines
// (bench_engines.h).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/bench_engines.h"
#include "cli/bench_profile.h"
#include "cli/command.h"
#include "cli/exit_status.h"
#include "cli/input_binding.h"
#include "cli/latency_stats.h"
#include "cli/session_flags.h"

namespace twinrt::cli {
namespace {

struct BenchFlags {
  std::string model;
  SessionFlags session;
  InputFlags inputs;
  int runs = 10;
  int warmup = 1;
  bool json = false;
  std::string engines;             // comma-separated; empty: twinrt only, in this process
  std::string graph_optimization;  // with --engines
  bool profile = false;
  bool progress = false;           // with --engines
};

struct BenchResult {
  double create_ms = 0;
  double first_run_ms = 0;
  LatencySummary latency_ms;
  double runs_per_second = 0;
  int64_t peak_rss_bytes = 0;
  ProfileDelta profile;  // with --profile: the timed runs
};

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Peak resident set size of this process (Linux reports ru_maxrss in KiB).
int64_t peak_rss_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return -1;
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;
}

void print_text(const BenchFlags& f, const SessionOptions& o, const BenchResult& r) {
  const LatencySummary& l = r.latency_ms;
  std::printf("model: %s (mode %s, threads %d)\n", f.model.c_str(), mode_name(o.mode), o.threads);
  std::printf("session creation: %.4g ms\n", r.create_ms);
  std::printf("first run: %.4g ms\n", r.first_run_ms);
  std::printf("latency over %d runs (after %d warm-up): p50 %.4g ms, p90 %.4g ms, p99 %.4g ms, "
              "min %.4g ms, mean %.4g ms, max %.4g ms\n",
              f.runs, f.warmup, l.p50, l.p90, l.p99, l.min, l.mean, l.max);
  std::printf("throughput: %.2f runs/s\n", r.runs_per_second);
  std::printf("peak RSS: %.1f MiB\n", static_cast<double>(r.peak_rss_bytes) / (1024.0 * 1024.0));
  if (f.profile) print_profile(r.profile, 15);
}

void print_json(const BenchFlags& f, const SessionOptions& o, const BenchResult& r) {
  const LatencySummary& l = r.latency_ms;
  nlohmann::json j = {
      {"model", f.model},
      {"mode", mode_name(o.mode)},
      {"threads", o.threads},
      {"runs", f.runs},
      {"warmup", f.warmup},
      {"session_create_ms", r.create_ms},
      {"first_run_ms", r.first_run_ms},
      {"latency_ms", {{"p50", l.p50}, {"p90", l.p90}, {"p99", l.p99}, {"min", l.min}, {"mean", l.mean}, {"max", l.max}}},
      {"runs_per_second", r.runs_per_second},
      {"peak_rss_bytes", r.peak_rss_bytes},
  };
  if (f.profile) j["profile"] = profile_json(r.profile);
  std::printf("%s\n", j.dump().c_str());
}

int bench_on_engines(const BenchFlags& flags) {
  if (flags.session.mode != "default")
    return report_error(invalid_argument("--mode does not apply with --engines: name the engine twinrt-ref instead"));
  auto names = split_engine_list(flags.engines);
  if (!names) return report_error(names.status());
  const BenchEnginesFlags f{flags.model, *names,        flags.session, flags.graph_optimization,
                            flags.inputs, flags.runs, flags.warmup,  flags.json,    flags.progress};
  return bench_engines(f);
}

int bench_model(const BenchFlags& flags) {
  if (flags.runs < 1) return report_error(invalid_argument("--runs must be >= 1, got " + std::to_string(flags.runs)));
  if (flags.warmup < 0)
    return report_error(invalid_argument("--warmup must be >= 0, got " + std::to_string(flags.warmup)));
  if (!flags.engines.empty() && flags.profile)
    return report_error(invalid_argument("--profile times twinrt's nodes in this process: drop --engines"));
  if (!flags.engines.empty()) return bench_on_engines(flags);
  if (!flags.graph_optimization.empty())
    return report_error(invalid_argument("--graph-optimization applies to ONNX Runtime engines: give --engines"));
  if (flags.progress) return report_error(invalid_argument("--progress shows the turns of --engines: give --engines"));
  auto options = to_session_options(flags.session);
  if (!options) return report_error(options.status());
  options->profile = flags.profile;
  BenchResult r;
  Clock::time_point start = Clock::now();
  auto session = Session::load(flags.model, *options);
  r.create_ms = ms_since(start);
  if (!session) return report_error(session.status());
  warn_about(**session);
  auto inputs = bind_inputs(**session, flags.inputs);
  if (!inputs) return report_error(inputs.status());
  const std::map<std::string, Value> feeds = as_feeds(*inputs);

  start = Clock::now();
  auto first = (*session)->run(feeds);
  r.first_run_ms = ms_since(start);
  if (!first) return report_error(first.status());
  for (int i = 0; i < flags.warmup; ++i) {
    auto out = (*session)->run(feeds);
    if (!out) return report_error(out.status());
  }
  std::vector<double> samples;
  const SessionProfile before = (*session)->profile();
  const Clock::time_point timed_start = Clock::now();
  for (int i = 0; i < flags.runs; ++i) {
    start = Clock::now();
    auto out = (*session)->run(feeds);
    samples.push_back(ms_since(start));
    if (!out) return report_error(out.status());
  }
  const double total_ms = ms_since(timed_start);
  r.latency_ms = summarize_latencies(samples);
  r.profile = profile_between(before, (*session)->profile());
  r.runs_per_second = total_ms > 0 ? flags.runs * 1000.0 / total_ms : 0;
  r.peak_rss_bytes = peak_rss_bytes();
  if (flags.json) print_json(flags, *options, r);
  else print_text(flags, *options, r);
  return kExitOk;
}

}  // namespace

Command add_bench_command(CLI::App& root) {
  auto flags = std::make_shared<BenchFlags>();
  CLI::App* cmd = root.add_subcommand("bench", "measure session creation, latency and memory");
  cmd->add_option("MODEL", flags->model, "the .onnx file")->required();
  cmd->add_option("--runs", flags->runs,
                  "timed runs (with --engines each is a turn of about 250 ms: 100 runs of 2 engines take about 50 s)")
      ->capture_default_str();
  cmd->add_option("--warmup", flags->warmup, "untimed runs after the first run")->capture_default_str();
  cmd->add_flag("--json", flags->json, "print one JSON object instead of text");
  cmd->add_flag("--profile", flags->profile,
                "time every node of the timed runs; print the time by op type and the slowest nodes");
  cmd->add_option("--engines", flags->engines,
                  "compare engines, run alternately: comma-separated, e.g. twinrt,ort,ort-web (see docs/engines.md)");
  cmd->add_flag("--progress", flags->progress, "with --engines: show progress on stderr even when it is not a terminal");
  cmd->add_option("--graph-optimization", flags->graph_optimization,
                  "with --engines: ONNX Runtime graph optimization level (disabled, basic, extended, all; default all)");
  add_session_flags(cmd, flags->session);
  add_input_flags(cmd, flags->inputs, /*with_test_data=*/false);
  return Command{cmd, [flags] { return bench_model(*flags); }};
}

}  // namespace twinrt::cli
