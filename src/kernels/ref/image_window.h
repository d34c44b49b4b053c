// Geometry of a sliding window (convolution or pooling) over one image plane, as plain
// sizes: what the ref kernels need, without any IR type.
#pragma once

#include <cstdint>

namespace twinrt::kernels {

// Every pointer has `rank` entries.
struct ImageWindow {
  int rank = 0;
  const int64_t* in = nullptr;         // input spatial sizes
  const int64_t* out = nullptr;        // output spatial sizes
  const int64_t* kernel = nullptr;
  const int64_t* strides = nullptr;
  const int64_t* dilations = nullptr;
  const int64_t* pad_begin = nullptr;
  const int64_t* pad_end = nullptr;
};

}  // namespace twinrt::kernels
