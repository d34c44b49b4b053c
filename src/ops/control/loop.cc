// Loop: runs `body` while the trip count and the condition allow. Inputs are
// (M?, cond?, v_initial...), body inputs (iteration_num, cond, v...), body outputs
// (cond, v..., scan_outputs...); node outputs (v_final..., scan_outputs stacked on a new
// first axis). Loop-carried values may be tensors, sequences or optionals.
//
// Nothing is sized by M up front: a hostile M with an early false condition costs
// nothing, and scan outputs grow with the iterations actually run.
#include <optional>

#include "ops/control/axis_blocks.h"
#include "ops/control/scalar_value.h"
#include "ops/control/subgraph_util.h"

namespace twinrt {
namespace {

class LoopKernel final : public OpKernel {
 public:
  LoopKernel(std::shared_ptr<const Subgraph> body, size_t num_carried)
      : body_(std::move(body)), num_carried_(num_carried) {}

  Status infer(InferContext& ctx) const override {
    for (size_t i = 0; i < ctx.output_types.size(); ++i) {
      const ir::TypeInfo& out = subgraph_output_type(*body_, 1 + i);
      if (i < num_carried_) {
        const ir::TypeInfo& initial = ctx.input_types.size() > 2 + i ? ctx.input_types[2 + i] : out;
        ctx.output_types[i] = initial.kind == ir::TypeInfo::Kind::kUnknown ? out : common_type(initial, out);
      } else {
        ctx.output_types[i] = with_leading_unknown_dim(out);
      }
    }
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    std::optional<int64_t> max_trips;
    if (ctx.has_input(0)) {
      ASSIGN_OR_RETURN(int64_t m, read_int_scalar(ctx.input_value(0), "trip count M"));
      max_trips = m;
    }
    bool keep_going = true;
    if (ctx.has_input(1)) {
      ASSIGN_OR_RETURN(keep_going, read_bool_scalar(ctx.input_value(1), "condition"));
    }
    std::vector<Value> carried;
    for (size_t i = 0; i < num_carried_; ++i) {
      const Value* v = ctx.input_value(2 + i);
      if (!v) return invalid_argument("loop-carried input " + std::to_string(i) + " is missing");
      carried.push_back(*v);
    }
    const size_t num_scan = ctx.num_outputs() - num_carried_;
    std::vector<std::vector<Tensor>> scans(num_scan);

    for (int64_t iter = 0; keep_going && (!max_trips || iter < *max_trips); ++iter) {
      std::vector<Value> in;
      in.reserve(2 + num_carried_);
      ASSIGN_OR_RETURN(Tensor iter_tensor, make_scalar_int64(iter));
      ASSIGN_OR_RETURN(Tensor cond_tensor, make_scalar_bool(keep_going));
      in.push_back(Value::of(std::move(iter_tensor)));
      in.push_back(Value::of(std::move(cond_tensor)));
      for (Value& v : carried) in.push_back(std::move(v));
      const std::string where = "iteration " + std::to_string(iter) + ": ";
      auto ran = ctx.run_subgraph(*body_, std::move(in));
      if (!ran) return ran.status().with_context(where);
      std::vector<Value>& out = ran.value();
      auto cond = read_bool_scalar(&out[0], "body output condition");
      if (!cond) return cond.status().with_context(where);
      keep_going = *cond;
      for (size_t i = 0; i < num_carried_; ++i) carried[i] = std::move(out[1 + i]);
      for (size_t k = 0; k < num_scan; ++k) {
        Value& v = out[1 + num_carried_ + k];
        if (!v.is_tensor()) return invalid_argument(where + "scan output " + std::to_string(k) + " is not a tensor");
        scans[k].push_back(std::move(v.tensor));
      }
    }

    for (size_t i = 0; i < num_carried_; ++i) ctx.set_output(i, std::move(carried[i]));
    for (size_t k = 0; k < num_scan; ++k) {
      const ir::TypeInfo& type = subgraph_output_type(*body_, 1 + num_carried_ + k);
      if (scans[k].empty() && type.elem == DataType::kUndefined)
        return not_implemented("scan output " + std::to_string(k) +
                               ": the loop ran no iterations and the body does not declare its type");
      auto stacked = stack_axis(scans[k], 0, false, type.elem, element_shape_or_zero(type));
      if (!stacked) return stacked.status().with_context("scan output " + std::to_string(k) + ": ");
      ctx.set_output(num_carried_ + k, Value::of(std::move(stacked).value()));
    }
    return Status::ok();
  }

 private:
  std::shared_ptr<const Subgraph> body_;
  size_t num_carried_;
};

Result<std::unique_ptr<OpKernel>> create_loop(const KernelInit& init) {
  if (init.num_inputs() < 2) return init.error("Loop needs at least the inputs M and cond (either may be empty)");
  ASSIGN_OR_RETURN(auto body, compile_graph_attribute(init, "body"));
  const size_t num_carried = init.num_inputs() - 2;
  if (body->inputs.size() != 2 + num_carried)
    return init.error("body takes " + std::to_string(body->inputs.size()) + " inputs, expected " +
                      std::to_string(2 + num_carried) + " (iteration_num, condition and " +
                      std::to_string(num_carried) + " loop-carried values)");
  if (body->outputs.size() != 1 + init.num_outputs() || init.num_outputs() < num_carried)
    return init.error("body has " + std::to_string(body->outputs.size()) + " outputs and the node " +
                      std::to_string(init.num_outputs()) + ", expected body outputs = 1 + node outputs "
                      "and at least " + std::to_string(num_carried) + " node outputs");
  return make_kernel<LoopKernel>(std::move(body), num_carried);
}

}  // namespace

TWINRT_REGISTER_OP("Loop", 1, create_loop);

}  // namespace twinrt
