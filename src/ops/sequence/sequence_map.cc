// SequenceMap: runs `body` once per element of the first input sequence. Other inputs
// are sequences of the same length (element i is passed) or tensors (passed whole);
// body output k of every run is collected into output sequence k.
#include "ops/control/subgraph_util.h"
#include "ops/sequence/sequence_util.h"

namespace twinrt {
namespace {

class SequenceMapKernel final : public OpKernel {
 public:
  explicit SequenceMapKernel(std::shared_ptr<const Subgraph> body) : body_(std::move(body)) {}

  Status infer(InferContext& ctx) const override {
    for (size_t k = 0; k < ctx.output_types.size(); ++k) {
      const ir::TypeInfo& t = subgraph_output_type(*body_, k);
      ctx.output_types[k] = ir::TypeInfo::sequence_of(t.is_tensor() ? t : ir::TypeInfo::tensor(DataType::kUndefined));
    }
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Value* first, sequence_input(ctx, 0));
    const size_t count = first->sequence.size();
    for (size_t j = 1; j < ctx.num_inputs(); ++j) {
      const Value* v = ctx.input_value(j);
      if (!v) return invalid_argument("input " + std::to_string(j) + " is missing");
      if (v->is_sequence() && v->sequence.size() != count)
        return invalid_argument("input sequence " + std::to_string(j) + " has " + std::to_string(v->sequence.size()) +
                                " elements, input 0 has " + std::to_string(count));
      if (!v->is_sequence() && !v->is_tensor())
        return invalid_argument("input " + std::to_string(j) + " must be a sequence or a tensor");
    }
    std::vector<std::vector<Tensor>> results(ctx.num_outputs());
    for (size_t i = 0; i < count; ++i) {
      std::vector<Value> in;
      for (size_t j = 0; j < ctx.num_inputs(); ++j) {
        const Value* v = ctx.input_value(j);
        in.push_back(v->is_sequence() ? Value::of(v->sequence[i]) : *v);
      }
      ASSIGN_OR_RETURN(std::vector<Value> out, ctx.run_subgraph(*body_, std::move(in)));
      for (size_t k = 0; k < out.size(); ++k) {
        if (!out[k].is_tensor())
          return invalid_argument("element " + std::to_string(i) + ": body output " + std::to_string(k) + " is not a tensor");
        results[k].push_back(std::move(out[k].tensor));
      }
    }
    for (size_t k = 0; k < results.size(); ++k) {
      const DataType dtype = results[k].empty() ? subgraph_output_type(*body_, k).elem : results[k][0].dtype();
      ctx.set_output(k, Value::of_sequence(std::move(results[k]), dtype));
    }
    return Status::ok();
  }

 private:
  std::shared_ptr<const Subgraph> body_;
};

Result<std::unique_ptr<OpKernel>> create_sequence_map(const KernelInit& init) {
  if (init.num_inputs() < 1 || !init.has_input(0)) return init.error("needs an input sequence");
  if (init.num_outputs() < 1) return init.error("needs at least one output");
  ASSIGN_OR_RETURN(auto body, compile_graph_attribute(init, "body"));
  if (body->inputs.size() != init.num_inputs() || body->outputs.size() != init.num_outputs())
    return init.error("body has " + std::to_string(body->inputs.size()) + " inputs and " +
                      std::to_string(body->outputs.size()) + " outputs, the node " + std::to_string(init.num_inputs()) +
                      " and " + std::to_string(init.num_outputs()));
  return make_kernel<SequenceMapKernel>(std::move(body));
}

}  // namespace

TWINRT_REGISTER_OP("SequenceMap", 17, create_sequence_map);

}  // namespace twinrt
