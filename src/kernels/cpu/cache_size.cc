#include "kernels/cpu/cache_size.h"

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <unistd.h>
#endif

namespace twinrt::kernels {

int64_t l2_cache_bytes() {
  static const int64_t bytes = [] {
    constexpr int64_t kUnknown = 1 << 20;
#if defined(__linux__) && !defined(__EMSCRIPTEN__) && defined(_SC_LEVEL2_CACHE_SIZE)
    const long reported = sysconf(_SC_LEVEL2_CACHE_SIZE);
    // A VM or an odd kernel may report nothing, or nonsense.
    if (reported >= (64 << 10) && reported <= (64 << 20)) return int64_t{reported};
#endif
    return kUnknown;
  }();
  return bytes;
}

}  // namespace twinrt::kernels
