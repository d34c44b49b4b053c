// If: runs then_branch or else_branch on a one-element bool condition. Branch outputs
// may be tensors, sequences or optionals (opset 16) and are passed on unchanged.
#include "ops/control/scalar_value.h"
#include "ops/control/subgraph_util.h"

namespace twinrt {
namespace {

class IfKernel final : public OpKernel {
 public:
  IfKernel(std::shared_ptr<const Subgraph> then_branch, std::shared_ptr<const Subgraph> else_branch)
      : then_(std::move(then_branch)), else_(std::move(else_branch)) {}

  Status infer(InferContext& ctx) const override {
    for (size_t i = 0; i < ctx.output_types.size(); ++i)
      ctx.output_types[i] = common_type(subgraph_output_type(*then_, i), subgraph_output_type(*else_, i));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(bool cond, read_bool_scalar(ctx.input_value(0), "condition"));
    const Subgraph& branch = cond ? *then_ : *else_;
    ASSIGN_OR_RETURN(std::vector<Value> outs, ctx.run_subgraph(branch, {}));
    if (outs.size() != ctx.num_outputs())
      return internal_error("branch gave " + std::to_string(outs.size()) + " outputs");
    for (size_t i = 0; i < outs.size(); ++i) ctx.set_output(i, std::move(outs[i]));
    return Status::ok();
  }

 private:
  std::shared_ptr<const Subgraph> then_, else_;
};

Result<std::unique_ptr<OpKernel>> create_if(const KernelInit& init) {
  if (init.num_inputs() != 1 || !init.has_input(0)) return init.error("If takes exactly one input (cond)");
  ASSIGN_OR_RETURN(auto then_branch, compile_graph_attribute(init, "then_branch"));
  ASSIGN_OR_RETURN(auto else_branch, compile_graph_attribute(init, "else_branch"));
  for (const auto* b : {then_branch.get(), else_branch.get()}) {
    const char* which = b == then_branch.get() ? "then_branch" : "else_branch";
    if (!b->inputs.empty())
      return init.error(std::string(which) + " must not declare inputs, it has " +
                        std::to_string(b->inputs.size()));
    if (b->outputs.size() != init.num_outputs())
      return init.error(std::string(which) + " has " + std::to_string(b->outputs.size()) +
                        " outputs but the node has " + std::to_string(init.num_outputs()));
  }
  return make_kernel<IfKernel>(std::move(then_branch), std::move(else_branch));
}

}  // namespace

TWINRT_REGISTER_OP("If", 1, create_if);

}  // namespace twinrt
