// MaxUnpool: scatters each value of X to the position its index names (the Indices
// output of MaxPool, flat in the unpooled shape that kernel, strides and pads imply);
// every other output element is zero. A larger explicit output_shape keeps the
// coordinates and pads at the ends.
#include <cstring>

#include "ops/nn/window.h"
#include "ops/op.h"

namespace twinrt {
namespace {

class MaxUnpoolKernel final : public OpKernel {
 public:
  explicit MaxUnpoolKernel(nn::WindowAttrs attrs) : attrs_(std::move(attrs)) {}

  Status infer(InferContext& ctx) const override {
    std::optional<ir::Shape> out;
    auto xs = ctx.static_shape(0);
    if (ctx.has_input(2)) {
      if (ctx.constant_inputs.size() > 2 && ctx.constant_inputs[2]) {
        auto dims = output_shape_from(*ctx.constant_inputs[2]);
        if (dims) out = ir::shape_of(*dims);
      }
    } else if (xs) {
      auto dims = default_shape(*xs);
      if (dims) out = ir::shape_of(*dims);
    }
    ctx.set_output(0, ctx.dtype(0), out);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* idx, ctx.tensor_input(1));
    if (idx->dtype() != DataType::kInt64 || idx->shape() != x->shape())
      return invalid_argument("MaxUnpool indices must be int64 with X's shape " + shape_to_string(x->shape()) +
                              ", got " + dtype_name(idx->dtype()) + shape_to_string(idx->shape()));
    ASSIGN_OR_RETURN(const std::vector<int64_t> unpooled, default_shape(x->shape()));
    std::vector<int64_t> ys = unpooled;
    if (ctx.has_input(2)) {
      ASSIGN_OR_RETURN(const Tensor* shape, ctx.tensor_input(2));
      ASSIGN_OR_RETURN(ys, output_shape_from(*shape));
      bool fits = ys.size() == unpooled.size();
      for (size_t d = 0; fits && d < ys.size(); ++d) fits = ys[d] >= unpooled[d];
      if (!fits)
        return invalid_argument("MaxUnpool output_shape " + shape_to_string(ys) + " is smaller than the unpooled shape " +
                                shape_to_string(unpooled));
    }
    if (x->dtype() == DataType::kString) return not_implemented("MaxUnpool of strings");
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), ys));
    const size_t elem = dtype_size(x->dtype());
    const int64_t* ip = idx->data<int64_t>();
    const auto* src = static_cast<const std::byte*>(x->raw());
    auto* dst = static_cast<std::byte*>(y->raw());
    const int64_t unpooled_numel = shape_numel(unpooled);
    for (int64_t i = 0; i < x->numel(); ++i) {
      if (ip[i] < 0 || ip[i] >= unpooled_numel)
        return invalid_argument("MaxUnpool index " + std::to_string(ip[i]) + " at position " + std::to_string(i) +
                                " is outside the unpooled shape " + shape_to_string(unpooled));
      const int64_t at = relocate(ip[i], unpooled, ys);
      std::memcpy(dst + static_cast<size_t>(at) * elem, src + static_cast<size_t>(i) * elem, elem);
    }
    return Status::ok();
  }

 private:
  Result<std::vector<int64_t>> default_shape(const std::vector<int64_t>& xs) const {
    const size_t r = attrs_.kernel_shape.size();
    if (xs.size() != r + 2)
      return invalid_argument("MaxUnpool X " + shape_to_string(xs) + " does not match kernel_shape of rank " +
                              std::to_string(r));
    if ((!attrs_.strides.empty() && attrs_.strides.size() != r) || (!attrs_.pads.empty() && attrs_.pads.size() != 2 * r))
      return invalid_argument("MaxUnpool strides/pads do not match kernel_shape of rank " + std::to_string(r));
    std::vector<int64_t> ys = {xs[0], xs[1]};
    for (size_t d = 0; d < r; ++d) {
      const int64_t s = attrs_.strides.empty() ? 1 : attrs_.strides[d];
      const int64_t pads = attrs_.pads.empty() ? 0 : attrs_.pads[d] + attrs_.pads[d + r];
      const int64_t o = (xs[d + 2] - 1) * s + attrs_.kernel_shape[d] - pads;
      if (o < 0) return invalid_argument("MaxUnpool output axis " + std::to_string(d) + " would be negative");
      ys.push_back(o);
    }
    return ys;
  }

  // The flat index in `to` of the element at flat index `flat` in `from` (same coordinates).
  static int64_t relocate(int64_t flat, const std::vector<int64_t>& from, const std::vector<int64_t>& to) {
    if (from == to) return flat;
    int64_t result = 0, stride = 1;
    for (size_t d = from.size(); d-- > 0;) {
      result += (flat % from[d]) * stride;
      flat /= from[d];
      stride *= to[d];
    }
    return result;
  }

  static Result<std::vector<int64_t>> output_shape_from(const Tensor& t) {
    if (t.dtype() != DataType::kInt64 || t.rank() != 1)
      return invalid_argument("MaxUnpool output_shape must be a 1-D int64 tensor, got " +
                              std::string(dtype_name(t.dtype())) + shape_to_string(t.shape()));
    std::vector<int64_t> dims(t.data<int64_t>(), t.data<int64_t>() + t.numel());
    if (shape_numel(dims) < 0) return invalid_argument("MaxUnpool output_shape " + shape_to_string(dims) + " is invalid");
    return dims;
  }

  nn::WindowAttrs attrs_;
};

Result<std::unique_ptr<OpKernel>> create_max_unpool(const KernelInit& init) {
  if (init.num_inputs() < 2 || init.num_inputs() > 3 || !init.has_input(0) || !init.has_input(1))
    return init.error("MaxUnpool takes X, I and optional output_shape, got " + std::to_string(init.num_inputs()) +
                      " inputs");
  ASSIGN_OR_RETURN(nn::WindowAttrs attrs, nn::parse_window_attrs(init, false));
  if (attrs.kernel_shape.empty()) return init.error("attribute 'kernel_shape' is required");
  return make_kernel<MaxUnpoolKernel>(std::move(attrs));
}

}  // namespace

TWINRT_REGISTER_OP("MaxUnpool", 9, create_max_unpool);

}  // namespace twinrt
