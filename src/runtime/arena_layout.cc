#include "runtime/arena_layout.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>

namespace twinrt {

ArenaLayout plan_arena(const std::vector<ArenaBlock>& blocks, size_t alignment) {
  const size_t n = blocks.size();
  ArenaLayout layout;
  layout.offsets.assign(n, 0);
  layout.sharing.assign(n, {});
  auto rounded = [&](size_t bytes) { return (std::max<size_t>(bytes, 1) + alignment - 1) & ~(alignment - 1); };

  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const ArenaBlock &x = blocks[static_cast<size_t>(a)], &y = blocks[static_cast<size_t>(b)];
    if (x.bytes != y.bytes) return x.bytes > y.bytes;
    return x.first < y.first;
  });

  std::vector<int> placed;
  std::vector<std::pair<size_t, size_t>> busy;  // [begin, end) of placed blocks alive with this one
  for (int b : order) {
    const ArenaBlock& blk = blocks[static_cast<size_t>(b)];
    const size_t need = rounded(blk.bytes);
    busy.clear();
    for (int p : placed) {
      const ArenaBlock& o = blocks[static_cast<size_t>(p)];
      if (o.first <= blk.last && blk.first <= o.last)
        busy.emplace_back(layout.offsets[static_cast<size_t>(p)], layout.offsets[static_cast<size_t>(p)] + rounded(o.bytes));
    }
    std::sort(busy.begin(), busy.end());
    // The smallest gap between busy ranges that fits, else after the last one.
    size_t best = SIZE_MAX, best_gap = SIZE_MAX, cursor = 0;
    for (const auto& [begin, end] : busy) {
      if (begin > cursor && begin - cursor >= need && begin - cursor < best_gap) {
        best = cursor;
        best_gap = begin - cursor;
      }
      cursor = std::max(cursor, end);
    }
    if (best == SIZE_MAX) best = cursor;
    layout.offsets[static_cast<size_t>(b)] = best;
    layout.size = std::max(layout.size, best + need);
    placed.push_back(b);
  }

  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      const size_t bi = layout.offsets[i], ei = bi + rounded(blocks[i].bytes);
      const size_t bj = layout.offsets[j], ej = bj + rounded(blocks[j].bytes);
      if (bi < ej && bj < ei) {
        layout.sharing[i].push_back(static_cast<int>(j));
        layout.sharing[j].push_back(static_cast<int>(i));
      }
    }
  return layout;
}

}  // namespace twinrt
