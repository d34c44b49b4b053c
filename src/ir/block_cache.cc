#include "ir/block_cache.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#endif
#include <cstdint>

namespace twinrt {
namespace {

constexpr size_t kAlign = 64;
// Small blocks come from malloc's own free lists; caching pays from here up.
constexpr size_t kMinCached = 64 * 1024;
constexpr size_t kPage = 4096;
// What the cache may hold, in bytes. WebAssembly's memory never shrinks anyway.
constexpr size_t kCapacity = sizeof(void*) == 8 ? size_t{1} << 30 : size_t{256} << 20;

struct Cache {
  std::mutex mu;
  std::multimap<size_t, std::byte*> blocks;  // by size
  size_t held = 0;
};

Cache& cache() {
  static Cache* c = new Cache;  // never destroyed: blocks may come back during exit
  return *c;
}

// Transparent huge pages, where the system allows, for the 2 MiB-aligned part of a block
// malloc did not have cached: its first writes then fault once per 2 MiB instead of once
// per 4 KiB (on the paravirtualized Zen 5 VM, with the model file's mapping in huge pages
// too, session creation of BERT 3.3 -> 1.8 s and of ResNet-50 1.05 -> 0.56 s: packed weights
// are such blocks; peak RSS unchanged). Only advice: failing changes nothing.
void advise_huge_pages(std::byte* p, size_t size) {
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + size) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)p;
  (void)size;
#endif
}

}  // namespace

std::byte* take_block(size_t bytes, size_t* size) {
  if (bytes < kMinCached) {
    *size = (bytes + kAlign - 1) / kAlign * kAlign;
    if (*size == 0) *size = kAlign;
    return static_cast<std::byte*>(std::aligned_alloc(kAlign, *size));
  }
  *size = (bytes + kPage - 1) / kPage * kPage;
  {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    // The smallest cached block that fits, unless it would waste more than half.
    auto it = c.blocks.lower_bound(*size);
    if (it != c.blocks.end() && it->first <= *size * 2) {
      *size = it->first;
      std::byte* p = it->second;
      c.held -= it->first;
      c.blocks.erase(it);
      return p;
    }
  }
  auto* p = static_cast<std::byte*>(std::aligned_alloc(kAlign, *size));
  if (p) advise_huge_pages(p, *size);
  return p;
}

void give_block(std::byte* block, size_t size) {
  if (size >= kMinCached) {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    if (c.held + size <= kCapacity) {
      c.blocks.emplace(size, block);
      c.held += size;
      return;
    }
  }
  std::free(block);
}

void trim_block_cache() {
  std::vector<std::byte*> blocks;
  {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    for (const auto& [size, p] : c.blocks) blocks.push_back(p);
    c.blocks.clear();
    c.held = 0;
  }
  for (std::byte* p : blocks) std::free(p);
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace twinrt
