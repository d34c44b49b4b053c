// ScatterElements (and its deprecated name Scatter) and ScatterND: a copy of data with
// the updates written at the indexed positions, optionally combined with the existing
// value (reduction add/mul from opset 16, max/min from 18). Updates are applied in
// index order, so with duplicates and no reduction the last one wins.
#include <algorithm>
#include <type_traits>

#include "kernels/math/half.h"
#include "ops/common/dispatch.h"
#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/indexing.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

enum class Reduction { kNone, kAdd, kMul, kMax, kMin };

Result<Reduction> parse_reduction(const KernelInit& init) {
  ASSIGN_OR_RETURN(std::string r, init.attr_string("reduction", "none"));
  if (r == "none") return Reduction::kNone;
  if (r == "add" && init.opset >= 16) return Reduction::kAdd;
  if (r == "mul" && init.opset >= 16) return Reduction::kMul;
  if (r == "max" && init.opset >= 18) return Reduction::kMax;
  if (r == "min" && init.opset >= 18) return Reduction::kMin;
  return init.error("reduction '" + r + "' is not valid at opset " + std::to_string(init.opset));
}

template <class T>
T combine(T a, T b, Reduction r) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
    const float c = combine(math::to_float(a), math::to_float(b), r);
    if constexpr (std::is_same_v<T, Float16>) return math::to_float16(c);
    else return math::to_bfloat16(c);
  } else if constexpr (std::is_same_v<T, bool>) {
    return r == Reduction::kAdd || r == Reduction::kMax ? (a || b) : (a && b);
  } else {
    switch (r) {
      case Reduction::kAdd: return static_cast<T>(a + b);
      case Reduction::kMul: return static_cast<T>(a * b);
      case Reduction::kMax: return std::max(a, b);
      case Reduction::kMin: return std::min(a, b);
      case Reduction::kNone: break;
    }
    return b;
  }
}

// out[offsets[i] + j] (op)= updates[i * slice + j], in order.
Status apply_updates(Tensor& out, const Tensor& updates, const std::vector<int64_t>& offsets, int64_t slice,
                     Reduction r) {
  if (r == Reduction::kNone) {
    for (size_t i = 0; i < offsets.size(); ++i)
      tensor_ops::copy_elements(out.dtype(), tensor_ops::element_ptr(out, offsets[i]),
                                tensor_ops::element_ptr(updates, static_cast<int64_t>(i) * slice), slice);
    return Status::ok();
  }
  return dispatch<kAllNumeric | kBoolT>(out.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    T* dst = out.data<T>();
    const T* upd = updates.data<T>();
    for (size_t i = 0; i < offsets.size(); ++i)
      for (int64_t j = 0; j < slice; ++j) {
        T& d = dst[offsets[i] + j];
        d = combine(d, upd[static_cast<int64_t>(i) * slice + j], r);
      }
    return Status::ok();
  });
}

// A copy of data (output 0) that the updates are then written into.
Result<Tensor*> copy_of_data(RunContext& ctx, const Tensor& data, const Tensor& updates, const char* op) {
  if (updates.dtype() != data.dtype())
    return invalid_argument(std::string(op) + " updates are " + dtype_name(updates.dtype()) + ", data is " +
                            dtype_name(data.dtype()));
  ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, data.dtype(), data.shape()));
  tensor_ops::copy_tensor_data(data, *y);
  return y;
}

Status infer_like_data(InferContext& ctx) {
  const ir::Shape* data = ctx.shape(0);
  ctx.set_output(0, ctx.dtype(0), data ? std::optional<ir::Shape>(*data) : std::nullopt);
  return Status::ok();
}

class ScatterElementsKernel final : public OpKernel {
 public:
  ScatterElementsKernel(int64_t axis, Reduction r) : axis_(axis), reduction_(r) {}

  Status infer(InferContext& ctx) const override { return infer_like_data(ctx); }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* data, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* indices, ctx.tensor_input(1));
    ASSIGN_OR_RETURN(const Tensor* updates, ctx.tensor_input(2));
    TRY(tensor_ops::check_indices_dtype(*indices, "ScatterElements"));
    ASSIGN_OR_RETURN(int64_t axis, tensor_ops::normalize_axis(axis_, data->rank(), "ScatterElements axis"));
    TRY(tensor_ops::check_element_shapes(*data, *indices, axis, "ScatterElements"));
    if (updates->shape() != indices->shape())
      return invalid_argument("ScatterElements updates shape " + shape_to_string(updates->shape()) +
                              " differs from indices shape " + shape_to_string(indices->shape()));
    ASSIGN_OR_RETURN(auto idx, tensor_ops::read_ints(*indices, "ScatterElements indices"));
    ASSIGN_OR_RETURN(auto offsets, tensor_ops::element_offsets(*data, indices->shape(), idx, axis,
                                                               "ScatterElements index"));
    ASSIGN_OR_RETURN(Tensor * y, copy_of_data(ctx, *data, *updates, "ScatterElements"));
    return apply_updates(*y, *updates, offsets, 1, reduction_);
  }

 private:
  int64_t axis_;
  Reduction reduction_;
};

class ScatterNdKernel final : public OpKernel {
 public:
  explicit ScatterNdKernel(Reduction r) : reduction_(r) {}

  Status infer(InferContext& ctx) const override { return infer_like_data(ctx); }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* data, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* indices, ctx.tensor_input(1));
    ASSIGN_OR_RETURN(const Tensor* updates, ctx.tensor_input(2));
    ASSIGN_OR_RETURN(auto slices, tensor_ops::nd_slices(*data, *indices, 0, "ScatterND"));
    if (updates->shape() != slices.out_shape)
      return invalid_argument("ScatterND updates shape " + shape_to_string(updates->shape()) + " should be " +
                              shape_to_string(slices.out_shape));
    ASSIGN_OR_RETURN(Tensor * y, copy_of_data(ctx, *data, *updates, "ScatterND"));
    return apply_updates(*y, *updates, slices.offsets, slices.slice_size, reduction_);
  }

 private:
  Reduction reduction_;
};

Status check_three_inputs(const KernelInit& init) {
  if (!init.has_input(0) || !init.has_input(1) || !init.has_input(2) || init.num_outputs() != 1)
    return init.error(init.node.op_type + " takes data, indices, updates and one output");
  return Status::ok();
}

Result<std::unique_ptr<OpKernel>> create_scatter_elements(const KernelInit& init) {
  TRY(check_three_inputs(init));
  ASSIGN_OR_RETURN(int64_t axis, init.attr_int("axis", 0));
  ASSIGN_OR_RETURN(Reduction r, parse_reduction(init));
  return make_kernel<ScatterElementsKernel>(axis, r);
}

Result<std::unique_ptr<OpKernel>> create_scatter_nd(const KernelInit& init) {
  TRY(check_three_inputs(init));
  ASSIGN_OR_RETURN(Reduction r, parse_reduction(init));
  return make_kernel<ScatterNdKernel>(r);
}

}  // namespace

TWINRT_REGISTER_OP_EX("", "Scatter", 9, 10, "ref", 0, create_scatter_elements);
TWINRT_REGISTER_OP("ScatterElements", 11, create_scatter_elements);
TWINRT_REGISTER_OP("ScatterND", 11, create_scatter_nd);

}  // namespace twinrt
