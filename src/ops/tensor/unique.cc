// Unique: the distinct elements (or, with `axis`, distinct slices along it), sorted or in
// order of first occurrence, with the first-occurrence indices, the inverse mapping and
// the counts (outputs 1-3 are optional).
#include <algorithm>
#include <numeric>

#include "ops/common/dispatch.h"
#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/ordering.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

// The input seen as `items` slices of [outer, items, inner]; slice i is compared as the
// sequence of its elements in row-major order.
struct ItemLayout {
  int64_t outer = 1, items = 0, inner = 1;
};

// Groups equal items: returns, per distinct item in output order, the member items
// (ascending), and fills inverse[item] = group position.
template <class T>
std::vector<std::vector<int64_t>> group_items(const T* data, const ItemLayout& l, bool sorted,
                                              std::vector<int64_t>& inverse) {
  const auto compare = [&](int64_t a, int64_t b) -> int {  // -1, 0, 1 lexicographically
    for (int64_t o = 0; o < l.outer; ++o)
      for (int64_t i = 0; i < l.inner; ++i) {
        const T& va = data[(o * l.items + a) * l.inner + i];
        const T& vb = data[(o * l.items + b) * l.inner + i];
        if (tensor_ops::value_less(va, vb)) return -1;
        if (tensor_ops::value_less(vb, va)) return 1;
      }
    return 0;
  };
  std::vector<int64_t> order(static_cast<size_t>(l.items));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return compare(a, b) < 0; });
  std::vector<std::vector<int64_t>> groups;
  for (size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || compare(order[k - 1], order[k]) != 0) groups.emplace_back();
    groups.back().push_back(order[k]);
  }
  if (!sorted)  // stable sort kept members ascending, so front() is the first occurrence
    std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  inverse.assign(static_cast<size_t>(l.items), 0);
  for (size_t g = 0; g < groups.size(); ++g)
    for (int64_t item : groups[g]) inverse[static_cast<size_t>(item)] = static_cast<int64_t>(g);
  return groups;
}

class UniqueKernel final : public OpKernel {
 public:
  UniqueKernel(std::optional<int64_t> axis, bool sorted) : axis_(axis), sorted_(sorted) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* in = ctx.shape(0);
    std::optional<ir::Shape> y_shape = ir::Shape(1);
    if (axis_) {
      y_shape.reset();
      if (in) {
        ASSIGN_OR_RETURN(int64_t axis,
                         tensor_ops::normalize_axis(*axis_, static_cast<int64_t>(in->size()), "Unique axis"));
        y_shape = *in;
        (*y_shape)[static_cast<size_t>(axis)] = ir::Dim{};
      }
    }
    ctx.set_output(0, ctx.dtype(0), y_shape);
    for (size_t i = 1; i < ctx.output_types.size(); ++i) ctx.set_output(i, DataType::kInt64, ir::Shape(1));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ItemLayout layout;
    int64_t axis = 0;
    if (axis_) {
      ASSIGN_OR_RETURN(axis, tensor_ops::normalize_axis(*axis_, x->rank(), "Unique axis"));
      for (int64_t d = 0; d < axis; ++d) layout.outer *= x->dim(d);
      for (int64_t d = axis + 1; d < x->rank(); ++d) layout.inner *= x->dim(d);
      layout.items = x->dim(axis);
    } else {
      layout.items = x->numel();
    }
    std::vector<int64_t> inverse;
    std::vector<std::vector<int64_t>> groups;
    TRY(dispatch<kAllTypes>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      groups = group_items(x->data<T>(), layout, sorted_, inverse);
      return Status::ok();
    }));
    const int64_t unique = static_cast<int64_t>(groups.size());

    std::vector<int64_t> y_shape{unique};
    if (axis_) {
      y_shape = x->shape();
      y_shape[static_cast<size_t>(axis)] = unique;
    }
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), y_shape));
    tensor_ops::AxisBlock block{layout.outer, layout.inner, layout.items, unique};
    for (int64_t g = 0; g < unique; ++g)
      tensor_ops::copy_axis_block(x->dtype(), block, y->raw(), g, x->raw(), groups[static_cast<size_t>(g)].front(), 1);

    std::vector<int64_t> first(groups.size()), counts(groups.size());
    for (size_t g = 0; g < groups.size(); ++g) {
      first[g] = groups[g].front();
      counts[g] = static_cast<int64_t>(groups[g].size());
    }
    TRY(write_ints(ctx, 1, first));
    TRY(write_ints(ctx, 2, inverse));
    return write_ints(ctx, 3, counts);
  }

 private:
  static Status write_ints(RunContext& ctx, size_t i, const std::vector<int64_t>& v) {
    if (!ctx.output_requested(i)) return Status::ok();
    ASSIGN_OR_RETURN(Tensor * t, ctx.output(i, DataType::kInt64, {static_cast<int64_t>(v.size())}));
    std::copy(v.begin(), v.end(), t->data<int64_t>());
    return Status::ok();
  }
  std::optional<int64_t> axis_;
  bool sorted_;
};

Result<std::unique_ptr<OpKernel>> create_unique(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() < 1 || init.num_outputs() > 4)
    return init.error("Unique takes one input and one to four outputs");
  ASSIGN_OR_RETURN(int64_t sorted, init.attr_int("sorted", 1));
  std::optional<int64_t> axis;
  if (init.has_attr("axis")) {
    ASSIGN_OR_RETURN(axis, init.attr_int("axis", 0));
  }
  return make_kernel<UniqueKernel>(axis, sorted != 0);
}

}  // namespace

TWINRT_REGISTER_OP("Unique", 11, create_unique);

}  // namespace twinrt
