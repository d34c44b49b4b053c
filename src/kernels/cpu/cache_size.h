// The data caches the blocking of a few kernels is sized to.
#pragma once

#include <cstdint>

namespace twinrt::kernels {

// Bytes of the L2 cache of one core, as the OS reports it (glibc's sysconf), read once;
// 1 MiB where it is not known (WebAssembly, other systems).
int64_t l2_cache_bytes();

}  // namespace twinrt::kernels
