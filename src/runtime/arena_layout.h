// Offsets of a run's tensors in one arena: blocks whose lifetimes overlap get disjoint
// bytes, blocks that never live at the same time may share them. A pure function of the
// blocks (no IR, no tensors), so it is tested on its own.
#pragma once

#include <cstddef>
#include <vector>

namespace twinrt {

struct ArenaBlock {
  int first = 0;     // the step that creates it
  int last = 0;      // the last step during which it is alive (inclusive, >= first)
  size_t bytes = 0;
};

struct ArenaLayout {
  std::vector<size_t> offsets;  // per block, a multiple of the alignment
  size_t size = 0;              // bytes the arena needs (a multiple of the alignment)
  // Per block, the other blocks whose bytes overlap its own (their lifetimes never do):
  // a run checks that these are dead before it hands the block out.
  std::vector<std::vector<int>> sharing;
};

// Greedy by size: the largest blocks are placed first, each at the lowest offset that
// does not overlap a placed block alive at the same time. `alignment` is a power of two.
ArenaLayout plan_arena(const std::vector<ArenaBlock>& blocks, size_t alignment = 64);

}  // namespace twinrt
