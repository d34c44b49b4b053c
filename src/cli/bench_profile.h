// `twinrt bench --profile`: where a run's time goes, by op type and by node, from the
// session's per-node clock (SessionOptions::profile).
#pragma once

#include <nlohmann/json.hpp>

#include "twinrt/session.h"

namespace twinrt::cli {

// Per-run node times over the runs between two snapshots of one session's profile.
struct ProfileDelta {
  int runs = 0;
  std::vector<NodeTime> nodes;  // ms per run, in the order the nodes run
};
ProfileDelta profile_between(const SessionProfile& before, const SessionProfile& after);

// Op types by total time, then the `top` slowest nodes, each with its share of the sum.
void print_profile(const ProfileDelta& d, int top);
nlohmann::json profile_json(const ProfileDelta& d);

}  // namespace twinrt::cli
