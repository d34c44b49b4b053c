#include "runtime/planner.h"

#include <set>

namespace twinrt {

void LastUsePlanner::plan(Subgraph& g) const {
  // Graph outputs, constants and values from enclosing graphs live for the whole run.
  std::set<int> keep(g.output_slots.begin(), g.output_slots.end());
  for (const auto& [slot, v] : g.constants) keep.insert(slot);
  for (int s : g.outer_slots) keep.insert(s);

  std::vector<int> last_use(static_cast<size_t>(g.num_slots), -1);
  auto use = [&](int slot, size_t step) {
    if (slot >= 0) last_use[static_cast<size_t>(slot)] = static_cast<int>(step);
  };
  for (size_t i = 0; i < g.steps.size(); ++i) {
    for (int s : g.steps[i].inputs) use(s, i);
    for (const auto& [name, s] : g.steps[i].implicit_inputs) use(s, i);
  }
  for (size_t i = 0; i < g.steps.size(); ++i)  // outputs nobody reads die with their step
    for (int s : g.steps[i].outputs)
      if (s >= 0 && last_use[static_cast<size_t>(s)] < 0) use(s, i);
  for (int s = 0; s < g.num_slots; ++s) {
    int step = last_use[static_cast<size_t>(s)];
    if (step >= 0 && !keep.count(s)) g.steps[static_cast<size_t>(step)].free_after.push_back(s);
  }
}

}  // namespace twinrt
