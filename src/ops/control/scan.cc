// Scan: iterates `body` over slices of the scan inputs, threading state values through.
//
// Opset 8: inputs (sequence_lens?, states..., scan_inputs...), every input batched on
// axis 0 and scanned on axis 1; each batch entry runs its own sequence_lens[b]
// iterations and scan outputs are zero-padded to the longest sequence.
// Opset 9+: inputs (states..., scan_inputs...) without a batch axis; scan_input_axes /
// scan_input_directions choose the axis and order of each scan input, and
// scan_output_axes / scan_output_directions where and in which order the per-iteration
// outputs are stacked.
#include "ops/control/axis_blocks.h"
#include "ops/control/subgraph_util.h"

namespace twinrt {
namespace {

struct ScanSpec {
  bool batched = false;  // opset 8
  size_t num_states = 0;
  size_t num_scan_inputs = 0;
  size_t num_scan_outputs = 0;
  std::vector<int64_t> input_axes;    // opset 9+ (may be negative until run time)
  std::vector<int64_t> input_reverse;
  std::vector<int64_t> output_axes;   // opset 9+
  std::vector<int64_t> output_reverse;
};

class ScanKernel final : public OpKernel {
 public:
  ScanKernel(std::shared_ptr<const Subgraph> body, ScanSpec spec) : body_(std::move(body)), spec_(std::move(spec)) {}

  Status infer(InferContext& ctx) const override {
    for (size_t i = 0; i < ctx.output_types.size(); ++i) {
      const ir::TypeInfo& out = subgraph_output_type(*body_, i);
      if (i < spec_.num_states) ctx.output_types[i] = spec_.batched ? ir::TypeInfo::tensor(out.elem) : out;
      else if (!spec_.batched && spec_.output_axes[i - spec_.num_states] == 0) ctx.output_types[i] = with_leading_unknown_dim(out);
      else ctx.output_types[i] = ir::TypeInfo::tensor(out.elem);
    }
    return Status::ok();
  }

  Status run(RunContext& ctx) const override { return spec_.batched ? run_batched(ctx) : run_unbatched(ctx); }

 private:
  // Runs `length` iterations; scan input j contributes its element at index t (or
  // length-1-t when reversed) along axes[j]. States are updated in place.
  Status iterate(RunContext& ctx, std::vector<Value>& states, const std::vector<Tensor>& scan_inputs,
                 const std::vector<int64_t>& axes, int64_t length,
                 std::vector<std::vector<Tensor>>& scan_outputs) const {
    scan_outputs.assign(spec_.num_scan_outputs, {});
    for (int64_t t = 0; t < length; ++t) {
      std::vector<Value> in;
      in.reserve(spec_.num_states + spec_.num_scan_inputs);
      for (Value& s : states) in.push_back(std::move(s));
      for (size_t j = 0; j < scan_inputs.size(); ++j) {
        const int64_t index = spec_.input_reverse[j] ? length - 1 - t : t;
        ASSIGN_OR_RETURN(Tensor slice, slice_axis(scan_inputs[j], axes[j], index, 1, false));
        in.push_back(Value::of(std::move(slice)));
      }
      auto ran = ctx.run_subgraph(*body_, std::move(in));
      if (!ran) return ran.status().with_context("iteration " + std::to_string(t) + ": ");
      std::vector<Value>& out = ran.value();
      for (size_t i = 0; i < spec_.num_states; ++i) states[i] = std::move(out[i]);
      for (size_t k = 0; k < spec_.num_scan_outputs; ++k) {
        Value& v = out[spec_.num_states + k];
        if (!v.is_tensor())
          return invalid_argument("iteration " + std::to_string(t) + ": scan output " + std::to_string(k) +
                                  " is not a tensor");
        scan_outputs[k].push_back(std::move(v.tensor));
      }
    }
    return Status::ok();
  }

  Result<std::vector<Tensor>> scan_input_tensors(RunContext& ctx, size_t first) const {
    std::vector<Tensor> xs;
    for (size_t j = 0; j < spec_.num_scan_inputs; ++j) {
      auto t = ctx.tensor_input(first + j);
      if (!t) return t.status().with_context("scan input " + std::to_string(j) + ": ");
      xs.push_back(**t);
    }
    return xs;
  }

  const ir::TypeInfo& scan_output_type(size_t k) const { return subgraph_output_type(*body_, spec_.num_states + k); }

  Status run_unbatched(RunContext& ctx) const {
    std::vector<Value> states;
    for (size_t i = 0; i < spec_.num_states; ++i) {
      const Value* v = ctx.input_value(i);
      if (!v) return invalid_argument("state input " + std::to_string(i) + " is missing");
      states.push_back(*v);
    }
    ASSIGN_OR_RETURN(std::vector<Tensor> xs, scan_input_tensors(ctx, spec_.num_states));
    std::vector<int64_t> axes;
    int64_t length = -1;
    for (size_t j = 0; j < xs.size(); ++j) {
      ASSIGN_OR_RETURN(int64_t axis, normalize_axis(spec_.input_axes[j], xs[j].rank(), "scan_input_axes value"));
      axes.push_back(axis);
      if (length >= 0 && xs[j].dim(axis) != length)
        return invalid_argument("scan input " + std::to_string(j) + " has " + std::to_string(xs[j].dim(axis)) +
                                " elements along its scan axis, scan input 0 has " + std::to_string(length));
      length = xs[j].dim(axis);
    }
    std::vector<std::vector<Tensor>> scans;
    TRY(iterate(ctx, states, xs, axes, length, scans));
    for (size_t i = 0; i < spec_.num_states; ++i) ctx.set_output(i, std::move(states[i]));
    for (size_t k = 0; k < spec_.num_scan_outputs; ++k) {
      const ir::TypeInfo& type = scan_output_type(k);
      const std::vector<int64_t> elem_shape = scans[k].empty() ? element_shape_or_zero(type) : scans[k][0].shape();
      const auto elem_rank = static_cast<int64_t>(elem_shape.size());
      ASSIGN_OR_RETURN(int64_t axis, normalize_axis(spec_.output_axes[k], elem_rank + 1, "scan_output_axes value"));
      auto stacked = stack_axis(scans[k], axis, spec_.output_reverse[k] != 0, type.elem, elem_shape);
      if (!stacked) return stacked.status().with_context("scan output " + std::to_string(k) + ": ");
      ctx.set_output(spec_.num_states + k, Value::of(std::move(stacked).value()));
    }
    return Status::ok();
  }

  Status run_batched(RunContext& ctx) const {
    ASSIGN_OR_RETURN(std::vector<Tensor> xs, scan_input_tensors(ctx, 1 + spec_.num_states));
    std::vector<Tensor> initial;
    for (size_t i = 0; i < spec_.num_states; ++i) {
      auto t = ctx.tensor_input(1 + i);
      if (!t) return t.status().with_context("state input " + std::to_string(i) + ": ");
      initial.push_back(**t);
    }
    const Tensor& x0 = xs[0];
    if (x0.rank() < 2) return invalid_argument("scan input 0 must be [batch, sequence, ...], got " + shape_to_string(x0.shape()));
    const int64_t batch = x0.dim(0), max_len = x0.dim(1);
    for (size_t j = 0; j < xs.size(); ++j)
      if (xs[j].rank() < 2 || xs[j].dim(0) != batch || xs[j].dim(1) != max_len)
        return invalid_argument("scan input " + std::to_string(j) + " has shape " + shape_to_string(xs[j].shape()) +
                                ", expected [" + std::to_string(batch) + "," + std::to_string(max_len) + ",...]");
    for (size_t i = 0; i < initial.size(); ++i)
      if (initial[i].rank() < 1 || initial[i].dim(0) != batch)
        return invalid_argument("state input " + std::to_string(i) + " has shape " + shape_to_string(initial[i].shape()) +
                                ", expected a leading batch dimension of " + std::to_string(batch));
    ASSIGN_OR_RETURN(std::vector<int64_t> lengths, sequence_lengths(ctx, batch, max_len));

    std::vector<std::vector<Tensor>> final_states(spec_.num_states);
    std::vector<std::vector<std::vector<Tensor>>> scans_per_batch;  // [b][k][t]
    const std::vector<int64_t> axes(xs.size(), 0);
    for (int64_t b = 0; b < batch; ++b) {
      std::vector<Value> states;
      for (const Tensor& s : initial) {
        ASSIGN_OR_RETURN(Tensor sb, slice_axis(s, 0, b, 1, false));
        states.push_back(Value::of(std::move(sb)));
      }
      std::vector<Tensor> xb;
      for (const Tensor& x : xs) {
        ASSIGN_OR_RETURN(Tensor t, slice_axis(x, 0, b, 1, false));
        xb.push_back(std::move(t));
      }
      std::vector<std::vector<Tensor>> scans;
      Status st = iterate(ctx, states, xb, axes, lengths[static_cast<size_t>(b)], scans);
      if (!st.is_ok()) return st.with_context("batch " + std::to_string(b) + ": ");
      for (size_t i = 0; i < spec_.num_states; ++i) {
        if (!states[i].is_tensor()) return invalid_argument("state output " + std::to_string(i) + " is not a tensor");
        final_states[i].push_back(std::move(states[i].tensor));
      }
      scans_per_batch.push_back(std::move(scans));
    }
    for (size_t i = 0; i < spec_.num_states; ++i) {
      const std::vector<int64_t> elem_shape(initial[i].shape().begin() + 1, initial[i].shape().end());
      auto stacked = stack_axis(final_states[i], 0, false, initial[i].dtype(), elem_shape);
      if (!stacked) return stacked.status().with_context("state output " + std::to_string(i) + ": ");
      ctx.set_output(i, Value::of(std::move(stacked).value()));
    }
    for (size_t k = 0; k < spec_.num_scan_outputs; ++k) {
      auto out = pad_and_stack(scans_per_batch, k, max_len);
      if (!out) return out.status().with_context("scan output " + std::to_string(k) + ": ");
      ctx.set_output(spec_.num_states + k, Value::of(std::move(out).value()));
    }
    return Status::ok();
  }

  Result<std::vector<int64_t>> sequence_lengths(RunContext& ctx, int64_t batch, int64_t max_len) const {
    std::vector<int64_t> lengths(static_cast<size_t>(batch), max_len);
    if (!ctx.has_input(0)) return lengths;
    ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(0));
    if (t->dtype() != DataType::kInt32 || t->numel() != batch)
      return invalid_argument("sequence_lens must be int32 with " + std::to_string(batch) + " elements, got " +
                              dtype_name(t->dtype()) + shape_to_string(t->shape()));
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t len = t->data<int32_t>()[b];
      if (len < 0 || len > max_len)
        return invalid_argument("sequence_lens[" + std::to_string(b) + "] = " + std::to_string(len) +
                                " is outside [0, " + std::to_string(max_len) + "]");
      lengths[static_cast<size_t>(b)] = len;
    }
    return lengths;
  }

  // [batch, max_len, ...] from per-batch iteration outputs, zero past each sequence's end.
  Result<Tensor> pad_and_stack(const std::vector<std::vector<std::vector<Tensor>>>& per_batch, size_t k,
                               int64_t max_len) const {
    const ir::TypeInfo& type = scan_output_type(k);
    DataType dtype = type.elem;
    std::vector<int64_t> elem_shape = element_shape_or_zero(type);
    for (const auto& scans : per_batch)
      if (!scans[k].empty()) {
        dtype = scans[k][0].dtype();
        elem_shape = scans[k][0].shape();
        break;
      }
    if (dtype == DataType::kUndefined)
      return not_implemented("no iterations ran and the body does not declare the output type");
    std::vector<Tensor> rows;
    for (const auto& scans : per_batch) {
      std::vector<Tensor> parts = scans[k];
      if (static_cast<int64_t>(parts.size()) < max_len) {
        ASSIGN_OR_RETURN(Tensor zero, Tensor::create(dtype, elem_shape));
        parts.resize(static_cast<size_t>(max_len), zero);
      }
      ASSIGN_OR_RETURN(Tensor row, stack_axis(parts, 0, false, dtype, elem_shape));
      rows.push_back(std::move(row));
    }
    std::vector<int64_t> row_shape = elem_shape;
    row_shape.insert(row_shape.begin(), max_len);
    return stack_axis(rows, 0, false, dtype, row_shape);
  }

  std::shared_ptr<const Subgraph> body_;
  ScanSpec spec_;
};

Result<std::vector<int64_t>> per_item_attr(const KernelInit& init, const std::string& name, size_t count, int64_t def) {
  ASSIGN_OR_RETURN(std::vector<int64_t> v, init.attr_ints(name, std::vector<int64_t>(count, def)));
  if (v.size() != count)
    return init.error("attribute '" + name + "' has " + std::to_string(v.size()) + " values, expected " +
                      std::to_string(count));
  return v;
}

Status check_directions(const KernelInit& init, const std::string& name, const std::vector<int64_t>& v) {
  for (int64_t d : v)
    if (d != 0 && d != 1) return init.error("attribute '" + name + "' values must be 0 or 1, got " + std::to_string(d));
  return Status::ok();
}

Result<std::unique_ptr<OpKernel>> create_scan(const KernelInit& init) {
  ScanSpec spec;
  spec.batched = init.opset < 9;
  ASSIGN_OR_RETURN(int64_t m, init.attr_int("num_scan_inputs", -1));
  const size_t leading = spec.batched ? 1 : 0;  // sequence_lens
  if (m < 1 || static_cast<size_t>(m) + leading > init.num_inputs())
    return init.error("num_scan_inputs must be between 1 and the number of inputs, got " + std::to_string(m));
  spec.num_scan_inputs = static_cast<size_t>(m);
  spec.num_states = init.num_inputs() - leading - spec.num_scan_inputs;
  if (init.num_outputs() < spec.num_states)
    return init.error("the node has " + std::to_string(init.num_outputs()) + " outputs, fewer than its " +
                      std::to_string(spec.num_states) + " state inputs");
  spec.num_scan_outputs = init.num_outputs() - spec.num_states;
  ASSIGN_OR_RETURN(auto body, compile_graph_attribute(init, "body"));
  if (body->inputs.size() != spec.num_states + spec.num_scan_inputs)
    return init.error("body takes " + std::to_string(body->inputs.size()) + " inputs, expected " +
                      std::to_string(spec.num_states + spec.num_scan_inputs) + " (states and scan inputs)");
  if (body->outputs.size() != init.num_outputs())
    return init.error("body has " + std::to_string(body->outputs.size()) + " outputs, the node " +
                      std::to_string(init.num_outputs()));
  if (spec.batched) {
    ASSIGN_OR_RETURN(spec.input_reverse, per_item_attr(init, "directions", spec.num_scan_inputs, 0));
    TRY(check_directions(init, "directions", spec.input_reverse));
  } else {
    ASSIGN_OR_RETURN(spec.input_axes, per_item_attr(init, "scan_input_axes", spec.num_scan_inputs, 0));
    ASSIGN_OR_RETURN(spec.input_reverse, per_item_attr(init, "scan_input_directions", spec.num_scan_inputs, 0));
    ASSIGN_OR_RETURN(spec.output_axes, per_item_attr(init, "scan_output_axes", spec.num_scan_outputs, 0));
    ASSIGN_OR_RETURN(spec.output_reverse, per_item_attr(init, "scan_output_directions", spec.num_scan_outputs, 0));
    TRY(check_directions(init, "scan_input_directions", spec.input_reverse));
    TRY(check_directions(init, "scan_output_directions", spec.output_reverse));
  }
  return make_kernel<ScanKernel>(std::move(body), std::move(spec));
}

}  // namespace

TWINRT_REGISTER_OP("Scan", 8, create_scan);

}  // namespace twinrt
