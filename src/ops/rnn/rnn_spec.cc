#include "ops/rnn/rnn_spec.h"

#include "kernels/math/half.h"

namespace twinrt {
namespace {

enum RnnInput : size_t { kX = 0, kW, kR, kB, kSequenceLens, kInitialH, kInitialC, kPeephole };

// `t` checked against X's dtype and `shape`, as a tensor of the compute type.
Result<Tensor> load_operand(const Tensor& t, DataType compute, DataType x_dtype, const char* name,
                            const std::vector<int64_t>& shape) {
  if (t.dtype() != x_dtype)
    return invalid_argument(std::string(name) + " is " + dtype_name(t.dtype()) + ", X is " + dtype_name(x_dtype));
  if (t.shape() != shape)
    return invalid_argument(std::string(name) + " must have shape " + shape_to_string(shape) + ", got " +
                            shape_to_string(t.shape()));
  if (t.dtype() == compute) return t;
  if (t.dtype() != DataType::kFloat16 || compute != DataType::kFloat)
    return not_implemented(std::string(name) + ": type " + dtype_name(t.dtype()) + " is not supported");
  ASSIGN_OR_RETURN(Tensor out, Tensor::create(compute, shape));
  for (int64_t i = 0; i < t.numel(); ++i) out.data<float>()[i] = math::to_float(t.data<Float16>()[i]);
  return out;
}

// An optional operand, or zeros of `shape` when the input is omitted.
Result<Tensor> load_optional(const RunContext& ctx, size_t i, DataType compute, DataType x_dtype, const char* name,
                             const std::vector<int64_t>& shape) {
  if (!ctx.has_input(i)) return Tensor::create(compute, shape);
  ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(i));
  return load_operand(*t, compute, x_dtype, name, shape);
}

}  // namespace

Result<RnnSpec> parse_rnn_spec(const KernelInit& init, int64_t gates, std::vector<std::string> default_activations,
                               bool has_cell_state) {
  RnnSpec spec;
  spec.gates = gates;
  spec.has_cell_state = has_cell_state;
  const size_t max_inputs = has_cell_state ? 8 : 6;
  if (init.num_inputs() < 3 || init.num_inputs() > max_inputs || !init.has_input(kX) || !init.has_input(kW) ||
      !init.has_input(kR))
    return init.error("needs inputs X, W, R and at most " + std::to_string(max_inputs) + " inputs in all");
  ASSIGN_OR_RETURN(std::string direction, init.attr_string("direction", "forward"));
  if (direction == "bidirectional") spec.dirs = 2;
  else if (direction == "reverse") spec.reverse_only = true;
  else if (direction != "forward")
    return init.error("direction must be forward, reverse or bidirectional, got '" + direction + "'");
  ASSIGN_OR_RETURN(spec.hidden, init.attr_int("hidden_size", 0));
  if (spec.hidden <= 0 || spec.hidden > (int64_t{1} << 31))
    return init.error("attribute hidden_size must be given and positive, got " + std::to_string(spec.hidden));
  spec.activations_per_dir = default_activations.size();
  ASSIGN_OR_RETURN(std::vector<std::string> names, init.attr_strings("activations"));
  if (names.empty()) names = default_activations;
  // One list for both directions: repeat it. (Inserting a vector's own range into itself
  // is undefined behaviour; it read freed memory and gave empty names natively.)
  if (names.size() == spec.activations_per_dir && spec.dirs == 2) {
    const std::vector<std::string> forward = names;
    names.insert(names.end(), forward.begin(), forward.end());
  }
  if (names.size() != spec.activations_per_dir * static_cast<size_t>(spec.dirs))
    return init.error("activations has " + std::to_string(names.size()) + " entries, expected " +
                      std::to_string(spec.activations_per_dir * static_cast<size_t>(spec.dirs)));
  ASSIGN_OR_RETURN(std::vector<float> alphas, init.attr_floats("activation_alpha"));
  ASSIGN_OR_RETURN(std::vector<float> betas, init.attr_floats("activation_beta"));
  ASSIGN_OR_RETURN(spec.activations, parse_rnn_activations(init, names, alphas, betas));
  if (init.has_attr("clip")) {
    ASSIGN_OR_RETURN(float clip, init.attr_float("clip", 0.0f));
    if (!(clip > 0)) return init.error("clip must be positive, got " + std::to_string(clip));
    spec.clip = clip;
  }
  ASSIGN_OR_RETURN(int64_t layout, init.attr_int("layout", 0));
  if (layout != 0 && layout != 1) return init.error("layout must be 0 or 1, got " + std::to_string(layout));
  spec.batch_first = layout == 1;
  return spec;
}

void infer_rnn_outputs(const RnnSpec& spec, InferContext& ctx) {
  const DataType dtype = ctx.dtype(kX);
  const ir::Shape* x = ctx.shape(kX);
  const bool known = x && x->size() == 3;
  const ir::Dim dirs = ir::Dim::of(spec.dirs), hidden = ir::Dim::of(spec.hidden);
  for (size_t i = 0; i < ctx.output_types.size(); ++i) {
    if (!known) {
      ctx.set_output(i, dtype);
      continue;
    }
    const ir::Dim seq = (*x)[spec.batch_first ? 1 : 0], batch = (*x)[spec.batch_first ? 0 : 1];
    if (i == 0)
      ctx.set_output(i, dtype, spec.batch_first ? ir::Shape{batch, seq, dirs, hidden} : ir::Shape{seq, dirs, batch, hidden});
    else
      ctx.set_output(i, dtype, spec.batch_first ? ir::Shape{batch, dirs, hidden} : ir::Shape{dirs, batch, hidden});
  }
}

template <class S>
Result<RnnOperands<S>> load_rnn_operands(const RunContext& ctx, const RnnSpec& spec) {
  RnnOperands<S> op;
  const DataType compute = dtype_of<S>();
  ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(kX));
  if (x->rank() != 3) return invalid_argument("X must have rank 3, got shape " + shape_to_string(x->shape()));
  const DataType dtype = x->dtype();
  op.seq = x->dim(spec.batch_first ? 1 : 0);
  op.batch = x->dim(spec.batch_first ? 0 : 1);
  op.input = x->dim(2);
  const int64_t rows = spec.gates * spec.hidden;
  ASSIGN_OR_RETURN(op.x, load_operand(*x, compute, dtype, "X", x->shape()));
  ASSIGN_OR_RETURN(const Tensor* w, ctx.tensor_input(kW));
  ASSIGN_OR_RETURN(op.w, load_operand(*w, compute, dtype, "W", {spec.dirs, rows, op.input}));
  ASSIGN_OR_RETURN(const Tensor* r, ctx.tensor_input(kR));
  ASSIGN_OR_RETURN(op.r, load_operand(*r, compute, dtype, "R", {spec.dirs, rows, spec.hidden}));
  ASSIGN_OR_RETURN(op.bias, load_optional(ctx, kB, compute, dtype, "B", {spec.dirs, 2 * rows}));
  const std::vector<int64_t> state = op.state_shape(spec);
  ASSIGN_OR_RETURN(op.h0, load_optional(ctx, kInitialH, compute, dtype, "initial_h", state));
  if (spec.has_cell_state) {
    ASSIGN_OR_RETURN(op.c0, load_optional(ctx, kInitialC, compute, dtype, "initial_c", state));
    ASSIGN_OR_RETURN(op.peephole, load_optional(ctx, kPeephole, compute, dtype, "P", {spec.dirs, 3 * spec.hidden}));
  } else {
    ASSIGN_OR_RETURN(op.c0, Tensor::create(compute, state));
  }
  op.lengths.assign(static_cast<size_t>(op.batch), op.seq);
  if (ctx.has_input(kSequenceLens)) {
    ASSIGN_OR_RETURN(const Tensor* lens, ctx.tensor_input(kSequenceLens));
    if (lens->dtype() != DataType::kInt32 || lens->shape() != std::vector<int64_t>{op.batch})
      return invalid_argument("sequence_lens must be int32[" + std::to_string(op.batch) + "], got " +
                              dtype_name(lens->dtype()) + shape_to_string(lens->shape()));
    for (int64_t b = 0; b < op.batch; ++b) {
      const int64_t len = lens->data<int32_t>()[b];
      if (len < 0 || len > op.seq)
        return invalid_argument("sequence_lens[" + std::to_string(b) + "] = " + std::to_string(len) +
                                " is outside [0, " + std::to_string(op.seq) + "]");
      op.lengths[static_cast<size_t>(b)] = len;
    }
  }
  return op;
}

template Result<RnnOperands<float>> load_rnn_operands<float>(const RunContext&, const RnnSpec&);
template Result<RnnOperands<double>> load_rnn_operands<double>(const RunContext&, const RnnSpec&);

}  // namespace twinrt
