#include "ops/binary/binary_shapes.h"

#include "ops/common/broadcast.h"

namespace twinrt {

Result<BinaryShapes> BinaryShapes::parse(const KernelInit& init) {
  BinaryShapes s;
  if (init.opset >= 7) return s;
  s.legacy_ = true;
  ASSIGN_OR_RETURN(int64_t broadcast, init.attr_int("broadcast", 0));
  s.broadcast_ = broadcast != 0;
  if (init.has_attr("axis")) {
    ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", 0));
    s.axis_ = axis;
  }
  return s;
}

Result<BinaryShapes::Resolved> BinaryShapes::resolve(const std::vector<int64_t>& a,
                                                    const std::vector<int64_t>& b) const {
  if (!legacy_) {
    ASSIGN_OR_RETURN(auto out, broadcast_shapes({a, b}));
    return Resolved{a, b, std::move(out)};
  }
  if (a == b) return Resolved{a, b, a};
  const std::string shapes = "A " + shape_to_string(a) + " and B " + shape_to_string(b);
  if (!broadcast_)
    return invalid_argument(shapes + " differ and the attribute broadcast is not 1");
  if (shape_numel(b) == 1) return Resolved{a, {}, a};

  const int64_t rank_a = static_cast<int64_t>(a.size()), rank_b = static_cast<int64_t>(b.size());
  int64_t start = rank_a - rank_b;
  if (axis_) start = *axis_ < 0 ? *axis_ + rank_a : *axis_;
  if (start < 0 || start + rank_b > rank_a)
    return invalid_argument(shapes + " cannot broadcast at axis " + std::to_string(start));
  std::vector<int64_t> b_view(a.size(), 1);
  for (int64_t i = 0; i < rank_b; ++i) {
    const int64_t want = a[static_cast<size_t>(start + i)], got = b[static_cast<size_t>(i)];
    if (got != want && got != 1)
      return invalid_argument(shapes + " cannot broadcast at axis " + std::to_string(start) +
                              ": dim " + std::to_string(i) + " of B is " + std::to_string(got) +
                              ", expected " + std::to_string(want) + " or 1");
    b_view[static_cast<size_t>(start + i)] = got;
  }
  return Resolved{a, std::move(b_view), a};
}

std::optional<ir::Shape> BinaryShapes::infer(const ir::Shape* a, const ir::Shape* b) const {
  if (legacy_) return a ? std::optional<ir::Shape>(*a) : std::nullopt;
  if (!a || !b) return std::nullopt;
  return broadcast_symbolic({a, b});
}

}  // namespace twinrt
