#include "cli/bench_profile.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace twinrt::cli {
namespace {

struct OpTotal {
  std::string op;
  int nodes = 0;
  double ms = 0;
};

std::vector<OpTotal> by_op(const ProfileDelta& d) {
  std::map<std::string, OpTotal> totals;
  for (const NodeTime& n : d.nodes) {
    OpTotal& t = totals[n.op];
    t.op = n.op;
    ++t.nodes;
    t.ms += n.total_ms;
  }
  std::vector<OpTotal> out;
  for (auto& [op, t] : totals) out.push_back(t);
  std::stable_sort(out.begin(), out.end(), [](const OpTotal& a, const OpTotal& b) { return a.ms > b.ms; });
  return out;
}

double sum_ms(const ProfileDelta& d) {
  double sum = 0;
  for (const NodeTime& n : d.nodes) sum += n.total_ms;
  return sum;
}

double share(double ms, double sum) { return sum > 0 ? 100.0 * ms / sum : 0.0; }

}  // namespace

ProfileDelta profile_between(const SessionProfile& before, const SessionProfile& after) {
  ProfileDelta d;
  d.runs = after.runs - before.runs;
  if (d.runs <= 0) return d;
  for (size_t i = 0; i < after.nodes.size(); ++i) {
    NodeTime n = after.nodes[i];
    if (i < before.nodes.size()) n.total_ms -= before.nodes[i].total_ms;
    n.total_ms /= d.runs;
    d.nodes.push_back(std::move(n));
  }
  return d;
}

void print_profile(const ProfileDelta& d, int top) {
  const double sum = sum_ms(d);
  std::printf("\nprofile over %d runs: %.4g ms per run in %zu nodes (the rest of a run: feeds, outputs, arena)\n",
              d.runs, sum, d.nodes.size());
  std::printf("%-28s %6s %10s %7s\n", "op", "nodes", "ms/run", "share");
  for (const OpTotal& t : by_op(d))
    std::printf("%-28s %6d %10.4g %6.1f%%\n", t.op.c_str(), t.nodes, t.ms, share(t.ms, sum));
  std::vector<const NodeTime*> slowest;
  for (const NodeTime& n : d.nodes) slowest.push_back(&n);
  std::stable_sort(slowest.begin(), slowest.end(),
                   [](const NodeTime* a, const NodeTime* b) { return a->total_ms > b->total_ms; });
  if (slowest.size() > static_cast<size_t>(top)) slowest.resize(static_cast<size_t>(top));
  std::printf("\nslowest %zu nodes:\n%10s %7s  %-20s %s\n", slowest.size(), "ms/run", "share", "op", "node");
  for (const NodeTime* n : slowest)
    std::printf("%10.4g %6.1f%%  %-20s %s\n", n->total_ms, share(n->total_ms, sum), n->op.c_str(), n->node.c_str());
}

nlohmann::json profile_json(const ProfileDelta& d) {
  nlohmann::json ops = nlohmann::json::array(), nodes = nlohmann::json::array();
  for (const OpTotal& t : by_op(d)) ops.push_back({{"op", t.op}, {"nodes", t.nodes}, {"ms_per_run", t.ms}});
  for (const NodeTime& n : d.nodes) nodes.push_back({{"node", n.node}, {"op", n.op}, {"ms_per_run", n.total_ms}});
  return {{"runs", d.runs}, {"node_ms_per_run", sum_ms(d)}, {"ops", ops}, {"nodes", nodes}};
}

}  // namespace twinrt::cli
