#include "ops/nn/window.h"

#include <algorithm>

namespace twinrt::nn {
namespace {

// Upper bound for window attributes: far beyond any real model, small enough that
// products with tensor dimensions cannot overflow int64.
constexpr int64_t kMaxWindowValue = int64_t{1} << 24;

int64_t product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

}  // namespace

Status check_window_values(const KernelInit& init, const std::vector<int64_t>& v, const char* name, int64_t min) {
  for (int64_t x : v)
    if (x < min || x > kMaxWindowValue)
      return init.error(std::string("attribute '") + name + "' values must be in [" + std::to_string(min) + ", " +
                        std::to_string(kMaxWindowValue) + "], got " + std::to_string(x));
  return Status::ok();
}

Result<AutoPad> parse_auto_pad(const KernelInit& init) {
  ASSIGN_OR_RETURN(std::string s, init.attr_string("auto_pad", "NOTSET"));
  if (s == "NOTSET" || s.empty()) return AutoPad::kNotSet;
  if (s == "VALID") return AutoPad::kValid;
  if (s == "SAME_UPPER") return AutoPad::kSameUpper;
  if (s == "SAME_LOWER") return AutoPad::kSameLower;
  return init.error("auto_pad must be NOTSET, VALID, SAME_UPPER or SAME_LOWER, got '" + s + "'");
}

Result<WindowAttrs> parse_window_attrs(const KernelInit& init, bool has_ceil_mode) {
  WindowAttrs a;
  ASSIGN_OR_RETURN(a.auto_pad, parse_auto_pad(init));
  ASSIGN_OR_RETURN(a.kernel_shape, init.attr_ints("kernel_shape"));
  ASSIGN_OR_RETURN(a.strides, init.attr_ints("strides"));
  ASSIGN_OR_RETURN(a.dilations, init.attr_ints("dilations"));
  ASSIGN_OR_RETURN(a.pads, init.attr_ints("pads"));
  if (has_ceil_mode) {
    ASSIGN_OR_RETURN(int64_t ceil_mode, init.attr_int("ceil_mode", 0));
    a.ceil_mode = ceil_mode != 0;
  }
  TRY(check_window_values(init, a.kernel_shape, "kernel_shape", 1));
  TRY(check_window_values(init, a.strides, "strides", 1));
  TRY(check_window_values(init, a.dilations, "dilations", 1));
  TRY(check_window_values(init, a.pads, "pads", 0));
  if (a.pads.size() % 2 != 0) return init.error("attribute 'pads' needs an even length, got " + std::to_string(a.pads.size()));
  return a;
}

int64_t WindowGeometry::in_size() const { return product(in); }
int64_t WindowGeometry::out_size() const { return product(out); }
int64_t WindowGeometry::kernel_size() const { return product(kernel); }

kernels::ImageWindow WindowGeometry::image() const {
  kernels::ImageWindow w;
  w.rank = static_cast<int>(rank());
  w.in = in.data();
  w.out = out.data();
  w.kernel = kernel.data();
  w.strides = strides.data();
  w.dilations = dilations.data();
  w.pad_begin = pad_begin.data();
  w.pad_end = pad_end.data();
  return w;
}

Result<WindowGeometry> forward_geometry(const WindowAttrs& attrs, const std::vector<int64_t>& in,
                                        const std::vector<int64_t>& kernel) {
  const size_t rank = in.size();
  auto sized = [&](const std::vector<int64_t>& v, size_t n, const char* name) -> Status {
    if (v.empty() || v.size() == n) return Status::ok();
    return invalid_argument(std::string("attribute '") + name + "' has " + std::to_string(v.size()) +
                            " values, the input has " + std::to_string(rank) + " spatial axes");
  };
  TRY(sized(kernel, rank, "kernel_shape"));
  if (kernel.size() != rank) return invalid_argument("the kernel shape is missing");
  TRY(sized(attrs.strides, rank, "strides"));
  TRY(sized(attrs.dilations, rank, "dilations"));
  TRY(sized(attrs.pads, 2 * rank, "pads"));
  WindowGeometry g;
  g.in = in;
  g.kernel = kernel;
  g.strides = attrs.strides.empty() ? std::vector<int64_t>(rank, 1) : attrs.strides;
  g.dilations = attrs.dilations.empty() ? std::vector<int64_t>(rank, 1) : attrs.dilations;
  g.pad_begin.assign(rank, 0);
  g.pad_end.assign(rank, 0);
  g.out.assign(rank, 0);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t s = g.strides[d];
    const int64_t span = (kernel[d] - 1) * g.dilations[d] + 1;
    if (attrs.auto_pad == AutoPad::kSameUpper || attrs.auto_pad == AutoPad::kSameLower) {
      g.out[d] = (in[d] + s - 1) / s;
      const int64_t total = std::max<int64_t>(0, (g.out[d] - 1) * s + span - in[d]);
      const int64_t small = total / 2;
      g.pad_begin[d] = attrs.auto_pad == AutoPad::kSameUpper ? small : total - small;
      g.pad_end[d] = total - g.pad_begin[d];
      continue;
    }
    if (attrs.auto_pad == AutoPad::kNotSet && !attrs.pads.empty()) {
      g.pad_begin[d] = attrs.pads[d];
      g.pad_end[d] = attrs.pads[d + rank];
    }
    const int64_t room = in[d] + g.pad_begin[d] + g.pad_end[d] - span;
    if (room < 0)
      return invalid_argument("spatial axis " + std::to_string(d) + ": padded input size " +
                              std::to_string(in[d] + g.pad_begin[d] + g.pad_end[d]) +
                              " is smaller than the dilated kernel " + std::to_string(span));
    g.out[d] = (attrs.ceil_mode ? (room + s - 1) / s : room / s) + 1;
    // With ceil_mode the last window must still start inside the input or the begin padding.
    if (attrs.ceil_mode && (g.out[d] - 1) * s >= in[d] + g.pad_begin[d]) --g.out[d];
  }
  return g;
}

}  // namespace twinrt::nn
