// Gradient (ai.onnx.preview.training): dy/dx for the part of the node's graph named by
// the xs, zs and y attributes, evaluated at the node's inputs (values for xs then zs).
// The forward part is compiled as a nested graph at load; the backward pass runs in
// double (autodiff.h).
#include "ops/training/autodiff.h"
#include "ops/training/gradient_rules.h"
#include "runtime/plan.h"

namespace twinrt {
namespace {

class GradientKernel final : public OpKernel {
 public:
  GradientKernel(GradientPlan plan, std::shared_ptr<const Subgraph> forward)
      : plan_(std::move(plan)), forward_(std::move(forward)) {}

  Status infer(InferContext& ctx) const override {
    for (size_t i = 0; i < ctx.output_types.size() && i < ctx.input_types.size(); ++i)
      ctx.output_types[i] = ctx.input_types[i];
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    std::vector<Value> inputs;
    for (size_t i = 0; i < ctx.num_inputs(); ++i) {
      const Value* v = ctx.input_value(i);
      if (!v) return invalid_argument("input " + std::to_string(i) + " is missing");
      inputs.push_back(*v);
    }
    ASSIGN_OR_RETURN(std::vector<Value> values, ctx.run_subgraph(*forward_, std::move(inputs)));
    ASSIGN_OR_RETURN(std::vector<Tensor> grads, backpropagate(plan_, values));
    for (size_t i = 0; i < grads.size(); ++i) {
      if (!ctx.output_requested(i)) continue;
      const DataType dtype = ctx.input(i).dtype();
      ASSIGN_OR_RETURN(Tensor* out, ctx.output(i, dtype, grads[i].shape()));
      const double* g = grads[i].data<double>();
      if (dtype == DataType::kDouble) std::copy(g, g + grads[i].numel(), out->data<double>());
      else if (dtype == DataType::kFloat)
        for (int64_t k = 0; k < grads[i].numel(); ++k) out->data<float>()[k] = static_cast<float>(g[k]);
      else return not_implemented(std::string("gradients of ") + dtype_name(dtype) + " values");
    }
    return Status::ok();
  }

 private:
  GradientPlan plan_;  // owns the forward graph that forward_ points into
  std::shared_ptr<const Subgraph> forward_;
};

Result<std::unique_ptr<OpKernel>> create_gradient(const KernelInit& init) {
  if (!init.graph) return internal_error(init.node.describe() + ": the runtime did not pass the enclosing graph");
  ASSIGN_OR_RETURN(std::vector<std::string> xs, init.attr_strings("xs"));
  ASSIGN_OR_RETURN(std::vector<std::string> zs, init.attr_strings("zs"));
  ASSIGN_OR_RETURN(std::string y, init.attr_string("y", ""));
  if (xs.empty() || y.empty()) return init.error("attributes 'xs' and 'y' are required");
  if (init.num_inputs() != xs.size() + zs.size())
    return init.error("takes one input per name in xs and zs (" + std::to_string(xs.size() + zs.size()) + "), got " +
                      std::to_string(init.num_inputs()));
  if (init.num_outputs() > xs.size())
    return init.error("has " + std::to_string(init.num_outputs()) + " outputs, xs names " + std::to_string(xs.size()));
  auto plan = plan_gradient(*init.graph, std::move(xs), std::move(zs), std::move(y), init.input_types);
  if (!plan) return plan.status().with_context(init.node.describe() + ": ");
  if (!init.compile_subgraph) return internal_error("no subgraph compiler for " + init.node.describe());
  auto forward = init.compile_subgraph(*plan->forward);
  if (!forward) return forward.status().with_context(init.node.describe() + ": forward graph: ");
  return make_kernel<GradientKernel>(std::move(plan).value(), std::move(forward).value());
}

}  // namespace

TWINRT_REGISTER_OP_EX("ai.onnx.preview.training", "Gradient", 1, INT64_MAX, "ref", 0, create_gradient);

}  // namespace twinrt
