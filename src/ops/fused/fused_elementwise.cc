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
    if (batches_rows(plan, inputs.size())) {
      run_row_batches(plan, inputs, ctx.pool(), y);
      return Status::ok();
    }
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
  // Rows short enough for several in one block, where an input repeats along the rows
  // (ElementwiseProgram::run_rows).
  static bool batches_rows(const BroadcastRows& plan, size_t num_inputs) {
    if (plan.rows() < 2 || 2 * plan.row_len() > ElementwiseProgram::kBlock) return false;
    for (size_t k = 0; k < num_inputs; ++k)
      if (plan.step(k) == 0) return true;
    return false;
  }

  void run_row_batches(const BroadcastRows& plan, const std::vector<const Tensor*>& inputs, ThreadPool& pool,
                       float* y) const {
    constexpr int64_t kBlock = ElementwiseProgram::kBlock;
    const int64_t row_len = plan.row_len(), rows = plan.rows();
    const int64_t batch = std::min(kBlock / row_len, ElementwiseProgram::kMaxRows);
    bool per_row[ElementwiseProgram::kMaxValues];
    for (size_t k = 0; k < inputs.size(); ++k) per_row[k] = plan.step(k) == 0;
    pool.parallel_for((rows + batch - 1) / batch, std::max<int64_t>(1, kElementsPerTask / (batch * row_len)),
                      [&](int64_t begin, int64_t end) {
      // Per thread, on the heap: WebAssembly threads have small stacks.
      thread_local std::vector<float> scratch(ElementwiseProgram::kRowsScratch);
      thread_local std::vector<float> gathered(ElementwiseProgram::kMaxValues * kBlock);
      thread_local std::vector<int64_t> offsets(ElementwiseProgram::kMaxValues * ElementwiseProgram::kMaxRows);
      const float* batch_inputs[ElementwiseProgram::kMaxValues];
      for (int64_t b = begin; b < end; ++b) {
        const int64_t r0 = b * batch, count = std::min(batch, rows - r0);
        plan.visit(r0, r0 + count, [&](int64_t out_off, const int64_t* in_off) {
          std::copy_n(in_off, inputs.size(), offsets.data() + (out_off / row_len - r0) * int64_t(inputs.size()));
        });
        for (size_t k = 0; k < inputs.size(); ++k)
          batch_inputs[k] = batch_input(inputs, k, per_row[k], offsets.data(), count, row_len,
                                        gathered.data() + int64_t(k) * kBlock);
        program_.run_rows(batch_inputs, per_row, count, row_len, scratch.data(), y + r0 * row_len);
      }
    });
  }

  // Input k for a batch of `count` rows whose offsets (one per input and row) are at
  // `offsets`: its rows where they lie side by side, else gathered into `g` (one value per
  // row where per_row).
  static const float* batch_input(const std::vector<const Tensor*>& inputs, size_t k, bool per_row,
                                  const int64_t* offsets, int64_t count, int64_t row_len, float* g) {
    const float* data = inputs[k]->data<float>();
    const auto offset = [&](int64_t r) { return offsets[static_cast<size_t>(r) * inputs.size() + k]; };
    bool side_by_side = !per_row;
    for (int64_t r = 1; side_by_side && r < count; ++r) side_by_side = offset(r) == offset(0) + r * row_len;
    if (side_by_side) return data + offset(0);
    for (int64_t r = 0; r < count; ++r) {
      if (per_row) g[r] = data[offset(r)];
      else std::copy_n(data + offset(r), row_len, g + r * row_len);
    }
    return g;
  }

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
