#include "ops/training/optimizer_update.h"

#include "ops/common/dispatch.h"

namespace twinrt {
namespace {

Result<double> read_real_scalar(const RunContext& ctx, size_t i, const char* what) {
  ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(i));
  if (t->numel() != 1) return invalid_argument(std::string(what) + " must be a scalar, got shape " + shape_to_string(t->shape()));
  if (t->dtype() == DataType::kFloat) return static_cast<double>(*t->data<float>());
  if (t->dtype() == DataType::kDouble) return *t->data<double>();
  return invalid_argument(std::string(what) + " must be float or double, got " + dtype_name(t->dtype()));
}

}  // namespace

Status OptimizerKernel::infer(InferContext& ctx) const {
  const size_t n = (ctx.input_types.size() - 2) / in_groups_;
  for (size_t k = 0; k < out_groups_; ++k)
    for (size_t v = 0; v < n; ++v)
      if (k * n + v < ctx.output_types.size()) ctx.output_types[k * n + v] = ctx.input_types[2 + v];
  return Status::ok();
}

Status OptimizerKernel::run(RunContext& ctx) const {
  OptimizerStep step{};
  ASSIGN_OR_RETURN(step.learning_rate, read_real_scalar(ctx, 0, "R"));
  ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(1));
  if (t->dtype() != DataType::kInt64 || t->numel() != 1)
    return invalid_argument("T must be an int64 scalar, got " + std::string(dtype_name(t->dtype())) + shape_to_string(t->shape()));
  step.update_count = *t->data<int64_t>();

  const size_t n = (ctx.num_inputs() - 2) / in_groups_;
  for (size_t v = 0; v < n; ++v) {
    std::vector<const Tensor*> ins;
    for (size_t g = 0; g < in_groups_; ++g) {
      ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(2 + g * n + v));
      if (!ins.empty() && (x->dtype() != ins[0]->dtype() || x->shape() != ins[0]->shape()))
        return invalid_argument("input " + std::to_string(2 + g * n + v) + " is " + dtype_name(x->dtype()) +
                                shape_to_string(x->shape()) + ", but its variable (input " + std::to_string(2 + v) +
                                ") is " + dtype_name(ins[0]->dtype()) + shape_to_string(ins[0]->shape()));
      ins.push_back(x);
    }
    std::vector<Tensor*> outs;
    for (size_t k = 0; k < out_groups_; ++k) {
      ASSIGN_OR_RETURN(Tensor* o, ctx.output(k * n + v, ins[0]->dtype(), ins[0]->shape()));
      outs.push_back(o);
    }
    TRY(dispatch<kF32 | kF64>(ins[0]->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      std::vector<double> in(in_groups_), out(out_groups_);
      for (int64_t e = 0; e < ins[0]->numel(); ++e) {
        for (size_t g = 0; g < in_groups_; ++g) in[g] = static_cast<double>(ins[g]->data<T>()[e]);
        rule_(step, in.data(), out.data());
        for (size_t k = 0; k < out_groups_; ++k) outs[k]->data<T>()[e] = static_cast<T>(out[k]);
      }
      return Status::ok();
    }));
  }
  return Status::ok();
}

Result<std::unique_ptr<OpKernel>> make_optimizer_kernel(const KernelInit& init, size_t in_groups,
                                                        size_t out_groups, ElementRule rule) {
  const size_t tensors = init.num_inputs() < 2 ? 0 : init.num_inputs() - 2;
  if (tensors == 0 || tensors % in_groups != 0)
    return init.error("expects R, T and " + std::to_string(in_groups) + " tensors per optimized variable, got " +
                      std::to_string(init.num_inputs()) + " inputs");
  const size_t n = tensors / in_groups;
  if (init.num_outputs() != n * out_groups)
    return init.error("expects " + std::to_string(out_groups) + " outputs per variable (" +
                      std::to_string(n * out_groups) + "), got " + std::to_string(init.num_outputs()));
  for (size_t i = 0; i < init.num_inputs(); ++i)
    if (!init.has_input(i)) return init.error("input " + std::to_string(i) + " is required");
  return make_kernel<OptimizerKernel>(in_groups, out_groups, std::move(rule));
}

}  // namespace twinrt
