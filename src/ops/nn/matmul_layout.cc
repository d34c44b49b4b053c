#include "ops/nn/matmul_layout.h"

#include "ops/common/broadcast.h"

namespace twinrt::nn {

Result<MatMulLayout> matmul_layout(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  if (a.empty() || b.empty())
    return invalid_argument("matrix product operands must have rank >= 1, got " + shape_to_string(a) +
                            " and " + shape_to_string(b));
  MatMulLayout l;
  std::vector<int64_t> a_batch(a.begin(), a.end() - std::min<size_t>(a.size(), 2));
  std::vector<int64_t> b_batch(b.begin(), b.end() - std::min<size_t>(b.size(), 2));
  l.m = a.size() == 1 ? 1 : a[a.size() - 2];
  l.k = a.back();
  const int64_t kb = b.size() == 1 ? b[0] : b[b.size() - 2];
  l.n = b.size() == 1 ? 1 : b.back();
  if (l.k != kb)
    return invalid_argument("matrix product inner dimensions differ: A " + shape_to_string(a) + ", B " +
                            shape_to_string(b));
  ASSIGN_OR_RETURN(std::vector<int64_t> batch, broadcast_shapes({a_batch, b_batch}));
  l.out_shape = batch;
  if (a.size() > 1) l.out_shape.push_back(l.m);
  if (b.size() > 1) l.out_shape.push_back(l.n);
  const int64_t a_step = l.m * l.k, b_step = l.k * l.n;
  BroadcastIterator it(batch, {a_batch, b_batch});
  it.for_each([&](int64_t, const int64_t* off) {
    l.a_offsets.push_back(off[0] * a_step);
    l.b_offsets.push_back(off[1] * b_step);
  });
  return l;
}

std::optional<ir::Shape> matmul_shape(const ir::Shape* a, const ir::Shape* b) {
  if (!a || !b || a->empty() || b->empty()) return std::nullopt;
  ir::Shape a_batch(a->begin(), a->end() - std::min<size_t>(a->size(), 2));
  ir::Shape b_batch(b->begin(), b->end() - std::min<size_t>(b->size(), 2));
  ir::Shape out = broadcast_symbolic({&a_batch, &b_batch});
  if (a->size() > 1) out.push_back((*a)[a->size() - 2]);
  if (b->size() > 1) out.push_back(b->back());
  return out;
}

}  // namespace twinrt::nn
