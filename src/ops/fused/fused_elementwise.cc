// FusedElementwise (domain ai.twinrt): a group of float32 elementwise nodes that
// passes/fuse_elementwise.cc merged into one node, run as an ElementwiseProgram over the
// broadcast of its inputs, so the group reads its inputs and writes its output once
// instead of once per node, with the separate nodes' bits.
#include <algorithm>
#include <vector>

#include "ops/binary/broadcast_rows.h"
#include "ops/common/broadcast.h"
#include "ops/fused/elementwise_program.h"
#include "ops/op.h"

namespace twinrt {
namespace {

class FusedElementwiseKernel final : public OpKernel {
 public:
  explicit FusedElementwiseKernel(ElementwiseProgram program) : program_(std::move(program)) {}
  Status infer(InferContext& ctx) const override {
    std::vector<const ir::Shape*> shapes;
    for (size_t i = 0; i < ctx.input_types.size(); ++i) shapes.push_back(ctx.shape(i));
    const bool known = std::all_of(shapes.begin(), shapes.end(), [](const ir::Shape* s) { return s != nullptr; });
    if (known) ctx.set_output(0, DataType::kFloat, broadcast_symbolic(shapes));
    else ctx.set_output(0, DataType::kFloat);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    std::vector<const Tensor*> inputs;
    std::vector<std::vector<int64_t>> shapes;
    for (size_t i = 0; i < ctx.num_inputs(); ++i) {
      ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(i));
      if (t->dtype() != DataType::kFloat)
        return invalid_argument(std::string("input ") + std::to_string(i) + " must be float32, got " + dtype_name(t->dtype()));
      inputs.push_back(t);
      shapes.push_back(t->shape());
    }
    ASSIGN_OR_RETURN(std::vector<int64_t> out_shape, broadcast_shapes(shapes));
    ASSIGN_OR_RETURN(Tensor * out, ctx.output_for_overwrite(0, DataType::kFloat, out_shape));
    BroadcastRows plan(out_shape, shapes);
    constexpr int64_t kBlock = ElementwiseProgram::kBlock;
    float* y = out->data<float>();
    for_each_row_block_parallel(plan, ctx.pool(), kBlock, [&](int64_t out_off, const int64_t* in_off, int64_t at, int64_t n) {
      // Per thread, on the heap: WebAssembly threads have small stacks.
      thread_local std::vector<float> scratch(ElementwiseProgram::kMaxValues * kBlock);
      Operand values[ElementwiseProgram::kMaxValues];
      for (size_t k = 0; k < inputs.size(); ++k) {
        const float* base = inputs[k]->data<float>() + in_off[k];
        values[k] = plan.step(k) != 0 ? Operand{base + at, false} : Operand{base, true};
      }
      program_.run_block(values, n, scratch.data(), y + out_off + at);
    });
    return Status::ok();
  }

 private:
  ElementwiseProgram program_;
};

Result<std::unique_ptr<OpKernel>> create_fused_elementwise(const KernelInit& init) {
  const ir::Node& node = init.node;
  if (node.outputs.size() != 1) return init.error("is not a fused elementwise group made by twinrt's graph passes");
  auto program = ElementwiseProgram::parse(node.elementwise_steps, node.inputs.size(), init.mode, init.isa);
  if (!program.is_ok()) return init.error(program.status().message());
  return make_kernel<FusedElementwiseKernel>(std::move(*program));
}

}  // namespace

TWINRT_REGISTER_OP_EX(ir::kInternalDomain, "FusedElementwise", 1, INT64_MAX, "ref", 0, create_fused_elementwise);

}  // namespace twinrt
