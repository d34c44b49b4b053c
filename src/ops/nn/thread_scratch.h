// Scratch memory of the calling thread, kept from call to call and only grown.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

namespace twinrt::nn {

// `floats` floats of the calling thread's buffer for `Owner` (null when out of memory).
// Allocated anew on every call, such buffers came back as fresh pages from the kernel whose
// faults took 1-3% of a model's time. Each owner type has its own buffer, so a user that
// calls another (a Winograd convolution calling the GEMM driver) never shares one with it; an
// owner must not use its buffer again while an earlier use is still live on the thread.
template <class Owner>
float* thread_scratch(int64_t floats) {
  thread_local std::unique_ptr<float[]> buffer;
  thread_local int64_t capacity = 0;
  if (floats > capacity) {
    buffer.reset(new (std::nothrow) float[static_cast<size_t>(floats)]);
    capacity = buffer ? floats : 0;
  }
  return buffer.get();
}

}  // namespace twinrt::nn
