// A process-wide cache of large freed tensor blocks. A model allocates the same sizes
// on every run; handing those blocks back instead of returning them to the OS saves
// the page faults of fresh memory (which cost as much as a fast kernel's work).
#pragma once

#include <cstddef>

namespace twinrt {

// A 64-byte aligned block of at least `bytes` (its real size in *size), reused when
// the cache has one that is not much larger, else newly allocated; null when refused.
std::byte* take_block(size_t bytes, size_t* size);
// Returns a block from take_block; kept for reuse while the cache has room, else freed.
void give_block(std::byte* block, size_t size);
// Frees every cached block (and, with glibc, returns free heap pages to the system): when a
// session's runs move to an arena, the blocks its first run left here would only add to
// the process's resident memory.
void trim_block_cache();

}  // namespace twinrt
