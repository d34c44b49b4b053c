#include "ops/nn/matmul_layout.h"

#include "ops/common/broadcast.h"

namespace twinrt::nn {
namespace {

// Row-major strides of a stored shape.
std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  return strides;
}

Status check_perm(const std::vector<int64_t>& perm, size_t rank, const char* what) {
  std::vector<bool> seen(rank, false);
  bool ok = perm.size() == rank;
  for (int64_t p : perm) {
    ok = ok && p >= 0 && p < static_cast<int64_t>(rank) && !seen[static_cast<size_t>(p)];
    if (ok) seen[static_cast<size_t>(p)] = true;
  }
  if (!ok)
    return invalid_argument(std::string("the Transpose folded into the product's ") + what + " has perm " +
                            shape_to_string(perm) + ", not a permutation of " + std::to_string(rank) + " dimensions");
  return Status::ok();
}

template <class Dim>
std::vector<Dim> permuted(const std::vector<Dim>& shape, const std::vector<int64_t>& perm) {
  std::vector<Dim> out;
  for (int64_t p : perm) out.push_back(shape[static_cast<size_t>(p)]);
  return out;
}

// An operand as the product sees it: its shape and each axis' element stride in the
// stored tensor.
struct View {
  std::vector<int64_t> shape, strides;
};

Result<View> view_of(const std::vector<int64_t>& stored, const std::vector<int64_t>& perm, const char* what) {
  const std::vector<int64_t> strides = contiguous_strides(stored);
  if (perm.empty()) return View{stored, strides};
  TRY(check_perm(perm, stored.size(), what));
  return View{permuted(stored, perm), permuted(strides, perm)};
}


// The element offset of batch `index` (a multi-index over `batch`, right-aligned with the
// operand's batch axes) in an operand whose batch axes have `shape` and `strides`.
int64_t batch_offset(const std::vector<int64_t>& index, const std::vector<int64_t>& shape,
                     const std::vector<int64_t>& strides) {
  int64_t offset = 0;
  const size_t skip = index.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1) offset += index[skip + d] * strides[d];
  return offset;
}

}  // namespace

Result<MatMulLayout> matmul_layout(const std::vector<int64_t>& a_stored, const std::vector<int64_t>& b_stored,
                                   const MatMulPerms& perms) {
  if (a_stored.empty() || b_stored.empty())
    return invalid_argument("matrix product operands must have rank >= 1, got " + shape_to_string(a_stored) +
                            " and " + shape_to_string(b_stored));
  ASSIGN_OR_RETURN(View a, view_of(a_stored, perms.a, "A"));
  ASSIGN_OR_RETURN(View b, view_of(b_stored, perms.b, "B"));
  MatMulLayout l;
  const size_t a_batch_rank = a.shape.size() - std::min<size_t>(a.shape.size(), 2);
  const size_t b_batch_rank = b.shape.size() - std::min<size_t>(b.shape.size(), 2);
  const std::vector<int64_t> a_batch(a.shape.begin(), a.shape.begin() + a_batch_rank);
  const std::vector<int64_t> b_batch(b.shape.begin(), b.shape.begin() + b_batch_rank);
  l.m = a.shape.size() == 1 ? 1 : a.shape[a.shape.size() - 2];
  l.k = a.shape.back();
  const int64_t kb = b.shape.size() == 1 ? b.shape[0] : b.shape[b.shape.size() - 2];
  l.n = b.shape.size() == 1 ? 1 : b.shape.back();
  if (l.k != kb)
    return invalid_argument("matrix product inner dimensions differ: A " + shape_to_string(a.shape) + ", B " +
                            shape_to_string(b.shape));
  l.a_k_stride = a.strides.back();
  l.a_row_stride = a.shape.size() == 1 ? 0 : a.strides[a.shape.size() - 2];
  l.b_k_stride = b.shape.size() == 1 ? b.strides[0] : b.strides[b.shape.size() - 2];
  l.b_col_stride = b.shape.size() == 1 ? 0 : b.strides.back();
  ASSIGN_OR_RETURN(std::vector<int64_t> batch, broadcast_shapes({a_batch, b_batch}));
  std::vector<int64_t> product = batch;
  if (a.shape.size() > 1) product.push_back(l.m);
  if (b.shape.size() > 1) product.push_back(l.n);
  // The product's element strides in the stored result.
  std::vector<int64_t> c_strides = contiguous_strides(product);
  l.out_shape = product;
  if (!perms.y.empty()) {
    TRY(check_perm(perms.y, product.size(), "result"));
    if (perms.y.back() != static_cast<int64_t>(product.size()) - 1)
      return invalid_argument("the Transpose folded into the product's result moves its last axis: perm " +
                              shape_to_string(perms.y));
    l.out_shape = permuted(product, perms.y);
    const std::vector<int64_t> stored = contiguous_strides(l.out_shape);
    for (size_t p = 0; p < perms.y.size(); ++p) c_strides[static_cast<size_t>(perms.y[p])] = stored[p];
  }
  l.c_row_stride = a.shape.size() > 1 && b.shape.size() > 1 ? c_strides[batch.size()] : l.n;
  const std::vector<int64_t> a_batch_strides(a.strides.begin(), a.strides.begin() + a_batch_rank);
  const std::vector<int64_t> b_batch_strides(b.strides.begin(), b.strides.begin() + b_batch_rank);
  const std::vector<int64_t> c_batch_strides(c_strides.begin(), c_strides.begin() + batch.size());
  std::vector<int64_t> index(batch.size(), 0);
  const int64_t batches = shape_numel(batch);
  for (int64_t i = 0; i < batches; ++i) {
    l.a_offsets.push_back(batch_offset(index, a_batch, a_batch_strides));
    l.b_offsets.push_back(batch_offset(index, b_batch, b_batch_strides));
    l.c_offsets.push_back(batch_offset(index, batch, c_batch_strides));
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < batch[d]) break;
      index[d] = 0;
    }
  }
  return l;
}

void merge_batches_sharing_b(MatMulLayout& l) {
  const size_t batches = l.a_offsets.size();
  if (batches < 2) return;
  // A one-row matrix has no row stride of its own: the batches' step becomes it.
  const int64_t a_rs = l.m == 1 ? l.a_offsets[1] - l.a_offsets[0] : l.a_row_stride;
  const int64_t c_rs = l.m == 1 ? l.c_offsets[1] - l.c_offsets[0] : l.c_row_stride;
  for (size_t i = 1; i < batches; ++i) {
    const auto rows = static_cast<int64_t>(i) * l.m;
    if (l.b_offsets[i] != l.b_offsets[0] || l.a_offsets[i] != l.a_offsets[0] + rows * a_rs ||
        l.c_offsets[i] != l.c_offsets[0] + rows * c_rs)
      return;
  }
  l.a_row_stride = a_rs;
  l.c_row_stride = c_rs;
  l.m *= static_cast<int64_t>(batches);
  l.a_offsets.resize(1);
  l.b_offsets.resize(1);
  l.c_offsets.resize(1);
}

std::optional<ir::Shape> matmul_shape(const ir::Shape* a_stored, const ir::Shape* b_stored, const MatMulPerms& perms) {
  if (!a_stored || !b_stored || a_stored->empty() || b_stored->empty()) return std::nullopt;
  if ((!perms.a.empty() && perms.a.size() != a_stored->size()) || (!perms.b.empty() && perms.b.size() != b_stored->size()))
    return std::nullopt;
  const ir::Shape a = perms.a.empty() ? *a_stored : permuted(*a_stored, perms.a);
  const ir::Shape b = perms.b.empty() ? *b_stored : permuted(*b_stored, perms.b);
  ir::Shape a_batch(a.begin(), a.end() - std::min<size_t>(a.size(), 2));
  ir::Shape b_batch(b.begin(), b.end() - std::min<size_t>(b.size(), 2));
  ir::Shape out = broadcast_symbolic({&a_batch, &b_batch});
  if (a.size() > 1) out.push_back(a[a.size() - 2]);
  if (b.size() > 1) out.push_back(b.back());
  if (perms.y.empty()) return out;
  if (perms.y.size() != out.size()) return std::nullopt;
  return permuted(out, perms.y);
}

}  // namespace twinrt::nn
