#include "ops/common/broadcast.h"

#include <algorithm>

namespace twinrt {

Result<std::vector<int64_t>> broadcast_shapes(const std::vector<std::vector<int64_t>>& shapes) {
  size_t rank = 0;
  for (const auto& s : shapes) rank = std::max(rank, s.size());
  std::vector<int64_t> out(rank, 1);
  for (const auto& s : shapes) {
    size_t off = rank - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t d = s[i];
      int64_t& o = out[off + i];
      if (d == o || d == 1) continue;
      if (o == 1) { o = d; continue; }
      std::string msg = "shapes cannot be broadcast together:";
      for (const auto& t : shapes) msg += " " + shape_to_string(t);
      return invalid_argument(msg);
    }
  }
  return out;
}

ir::Shape broadcast_symbolic(const std::vector<const ir::Shape*>& shapes) {
  size_t rank = 0;
  for (const auto* s : shapes) rank = std::max(rank, s->size());
  ir::Shape out(rank, ir::Dim::of(1));
  for (const auto* s : shapes) {
    size_t off = rank - s->size();
    for (size_t i = 0; i < s->size(); ++i) {
      const ir::Dim& d = (*s)[i];
      ir::Dim& o = out[off + i];
      if (d.known() && d.value == 1) continue;
      if (o.known() && o.value == 1) { o = d; continue; }
      if (d == o) continue;
      if (!d.known() && d.symbol.empty()) continue;  // unknown vs something: keep what we have
      if (!o.known() && o.symbol.empty()) { o = d; continue; }
      if (d.known() && !o.known()) { o = d; continue; }  // symbol must equal the number
      if (!d.known() && o.known()) continue;
      o = ir::Dim{};  // two different symbols: unknown
    }
  }
  return out;
}

std::vector<int64_t> broadcast_strides(const std::vector<int64_t>& in, const std::vector<int64_t>& out) {
  std::vector<int64_t> strides(out.size(), 0);
  int64_t stride = 1;
  size_t off = out.size() - in.size();
  for (size_t i = in.size(); i-- > 0;) {
    strides[off + i] = in[i] == 1 ? 0 : stride;
    stride *= in[i];
  }
  return strides;
}

BroadcastIterator::BroadcastIterator(const std::vector<int64_t>& out_shape,
                                     const std::vector<std::vector<int64_t>>& in_shapes)
    : out_shape_(out_shape), numel_(shape_numel(out_shape)) {
  for (const auto& s : in_shapes) strides_.push_back(broadcast_strides(s, out_shape));
}

}  // namespace twinrt
