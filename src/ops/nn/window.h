// Sliding-window geometry shared by Conv, ConvInteger, QLinearConv and the pooling ops:
// kernel_shape, strides, dilations, pads / auto_pad, ceil_mode.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/ref/image_window.h"
#include "ops/op.h"

namespace twinrt::nn {

enum class AutoPad { kNotSet, kValid, kSameUpper, kSameLower };

// The attributes as written in the node; empty vectors mean "not given".
struct WindowAttrs {
  AutoPad auto_pad = AutoPad::kNotSet;
  std::vector<int64_t> kernel_shape, strides, dilations, pads;
  bool ceil_mode = false;
};

// Reads and checks the attributes (positive strides/dilations/kernel, non-negative pads,
// consistent lengths). `ceil_mode` is read only where the op has it.
Result<WindowAttrs> parse_window_attrs(const KernelInit& init, bool has_ceil_mode);
Result<AutoPad> parse_auto_pad(const KernelInit& init);
// Checks every value of a window-like attribute is in [min, 2^24] (larger values are not
// meaningful and could overflow size arithmetic).
Status check_window_values(const KernelInit& init, const std::vector<int64_t>& values, const char* name, int64_t min);

// Resolved sizes for one input: one entry per spatial axis.
struct WindowGeometry {
  std::vector<int64_t> in, out, kernel, strides, dilations, pad_begin, pad_end;
  size_t rank() const { return in.size(); }
  int64_t in_size() const;      // product of `in`
  int64_t out_size() const;     // product of `out`
  int64_t kernel_size() const;  // product of `kernel`
  // A view for the ref kernels; valid while this geometry lives.
  kernels::ImageWindow image() const;
};

// Output sizes of a forward window (Conv, pools) over spatial dims `in` with kernel
// `kernel`; errors name the axis and sizes that do not fit.
Result<WindowGeometry> forward_geometry(const WindowAttrs& attrs, const std::vector<int64_t>& in,
                                        const std::vector<int64_t>& kernel);

}  // namespace twinrt::nn
