// Per-node and per-function times of a model in WebAssembly under Node.js (scripts/
// wasm-profile.sh builds this against the simd build's core objects and runs it under
// `node --prof`). Usage: wasm_profile MODEL RUNS [DIM=VALUE ...]
// Inputs are deterministic values of each input's type (float: sin, integers: i * 7 mod
// 1000); a first session runs as many times before, so that V8 has tiered the hot
// functions up from its baseline compiler when the profiled session runs.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "twinrt/session.h"

using namespace twinrt;

namespace {

Result<std::map<std::string, Value>> make_feeds(const Session& session, const SessionOptions& options) {
  std::map<std::string, Value> feeds;
  for (const IoInfo& in : session.inputs()) {
    std::vector<int64_t> dims;
    for (size_t i = 0; i < in.dims.size(); ++i) {
      const auto named = options.dim_overrides.find(in.dim_names[i]);
      dims.push_back(in.dims[i] >= 0 ? in.dims[i] : named != options.dim_overrides.end() ? named->second : 1);
    }
    ASSIGN_OR_RETURN(Tensor t, Tensor::create(in.dtype, dims));
    for (int64_t i = 0; i < t.numel(); ++i) {
      if (in.dtype == DataType::kFloat) t.data<float>()[i] = std::sin(static_cast<float>(i) * 0.37f);
      if (in.dtype == DataType::kInt64) t.data<int64_t>()[i] = i * 7 % 1000;
      if (in.dtype == DataType::kInt32) t.data<int32_t>()[i] = static_cast<int32_t>(i * 7 % 1000);
    }
    feeds[in.name] = Value::of(std::move(t));
  }
  return feeds;
}

int fail(const char* what, const Status& st) {
  std::fprintf(stderr, "wasm_profile: %s: %s\n", what, st.message().c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || std::atoi(argv[2]) < 1) {
    std::fprintf(stderr, "usage: wasm_profile MODEL RUNS [DIM=VALUE ...]\n");
    return 2;
  }
  SessionOptions options;
  for (int i = 3; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "wasm_profile: '%s' is not DIM=VALUE\n", argv[i]);
      return 2;
    }
    options.dim_overrides[arg.substr(0, eq)] = std::atoll(arg.c_str() + eq + 1);
  }
  const int runs = std::atoi(argv[2]);
  auto warm = Session::load(argv[1], options);
  if (!warm) return fail("load", warm.status());
  auto feeds = make_feeds(**warm, options);
  if (!feeds) return fail("inputs", feeds.status());
  for (int r = 0; r < runs; ++r)
    if (auto out = (*warm)->run(*feeds); !out) return fail("run", out.status());
  options.profile = true;
  auto session = Session::load(argv[1], options);
  if (!session) return fail("load", session.status());
  for (int r = 0; r < runs; ++r)
    if (auto out = (*session)->run(*feeds); !out) return fail("run", out.status());
  const SessionProfile profile = (*session)->profile();
  std::map<std::string, double> by_op;
  double total = 0;
  for (const NodeTime& n : profile.nodes) {
    by_op[n.op] += n.total_ms / profile.runs;
    total += n.total_ms / profile.runs;
  }
  std::printf("%.2f ms per run over the nodes (%d runs)\n", total, profile.runs);
  std::vector<std::pair<double, std::string>> ops;
  for (const auto& [op, ms] : by_op) ops.emplace_back(ms, op);
  std::sort(ops.rbegin(), ops.rend());
  for (const auto& [ms, op] : ops) std::printf("  %-26s %9.3f ms %5.1f%%\n", op.c_str(), ms, 100 * ms / total);
  std::vector<NodeTime> nodes = profile.nodes;
  std::sort(nodes.begin(), nodes.end(), [](const NodeTime& a, const NodeTime& b) { return a.total_ms > b.total_ms; });
  std::printf("slowest nodes:\n");
  for (size_t i = 0; i < nodes.size() && i < 15; ++i)
    std::printf("  %9.3f ms  %-18s %s\n", nodes[i].total_ms / profile.runs, nodes[i].op.c_str(), nodes[i].node.c_str());
  return 0;
}
