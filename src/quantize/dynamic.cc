// Dynamic quantization: int8 weights stored in the file, activations quantized at run time.
//   MatMul(A, B const [K, N])  -> DynamicQuantizeLinear(A) -> MatMulInteger -> Cast -> Mul(a_scale * b_scale)
//   Conv(X, W const [, B])     -> DynamicQuantizeLinear(X) -> ConvInteger -> Cast -> Mul [-> Add bias]
//   Gather(table const, ids)   -> Gather(int8 table, ids) -> DequantizeLinear
// Activations are uint8 (DynamicQuantizeLinear's type), weights symmetric int8: the
// u8 x s8 products the integer kernels are fastest at. One DynamicQuantizeLinear serves
// every MatMul/Conv that reads the same activation.
#include <optional>

#include "quantize/graph_edit.h"
#include "quantize/quantize.h"
#include "quantize/rewrite_common.h"
#include "quantize/tensor_quant.h"

namespace twinrt::quantize {
namespace {

class DynamicRewriter {
 public:
  DynamicRewriter(ir::Model& model, const QuantizeOptions& options)
      : model_(model), options_(options), edit_(*model.graph) {}

  Result<QuantizeSummary> run() {
    if (model_.opset("") < 11)
      return invalid_argument("dynamic quantization needs ai.onnx opset 11 or later (DynamicQuantizeLinear); the model imports " +
                              std::to_string(model_.opset("")));
    ir::Graph& g = edit_.graph();
    const size_t count = g.nodes.size();
    for (size_t i = 0; i < count; ++i) {
      const ir::Node& n = g.nodes[i];
      if (!n.domain.empty() || is_excluded(options_, n)) continue;
      Result<bool> done = false;
      if (n.op_type == "MatMul") done = matmul(i);
      else if (n.op_type == "Conv") done = conv(i);
      else if (n.op_type == "Gather") done = gather(i);
      else continue;
      if (!done) return done.status();
      if (*done) ++summary_.quantized[n.op_type];
    }
    edit_.commit();
    return summary_;
  }

 private:
  // DynamicQuantizeLinear of `value`, placed before node `user` (shared by later users).
  struct DynamicQ {
    std::string q, scale, zero;
  };
  DynamicQ dynamic_quantize(const std::string& value, size_t user) {
    auto it = dq_.find(value);
    if (it != dq_.end()) return it->second;
    DynamicQ d{edit_.fresh(value + "_quantized"), edit_.fresh(value + "_scale"), edit_.fresh(value + "_zero_point")};
    edit_.insert_before(user, make_node("DynamicQuantizeLinear", edit_.fresh(value + "_DynamicQuantizeLinear"), {value},
                                        {d.q, d.scale, d.zero}));
    return dq_[value] = d;
  }

  // Replaces node i (op) by `op_integer`(X_q, W_q, x_zero, w_zero) -> Cast -> Mul(scales)
  // [-> Add(bias)], writing the node's own output name last.
  Status integer_op(size_t i, const std::string& op_integer, const QuantizedWeights& w, const Tensor* bias,
                    const std::vector<int64_t>& param_shape) {
    const ir::Node n = edit_.graph().nodes[i];
    const std::string& base = n.name.empty() ? n.outputs[0] : n.name;
    const DynamicQ x = dynamic_quantize(n.inputs[0], i);
    const std::string wq = edit_.add_initializer(n.inputs[1] + "_quantized", w.data);
    const std::string wz = edit_.add_initializer(n.inputs[1] + "_zero_point", w.zero);
    ASSIGN_OR_RETURN(Tensor w_scale, w.scale.reshaped(w.scale.numel() == 1 ? std::vector<int64_t>{} : param_shape));
    const std::string ws = edit_.add_initializer(n.inputs[1] + "_scale", w_scale);
    const std::string acc = edit_.fresh(base + "_int32"), acc_f = edit_.fresh(base + "_int32_float");
    const std::string scale = edit_.fresh(base + "_output_scale");
    ir::Node op = make_node(op_integer, edit_.fresh(base + "_" + op_integer), {x.q, wq, x.zero, wz}, {acc});
    for (const ir::Attribute& a : n.attributes) op.attributes.push_back(a);
    edit_.insert_before(i, std::move(op));
    edit_.insert_before(i, make_node("Cast", edit_.fresh(base + "_Cast"), {acc}, {acc_f},
                                     {int_attribute("to", static_cast<int64_t>(DataType::kFloat))}));
    edit_.insert_before(i, make_node("Mul", edit_.fresh(base + "_scale_Mul"), {x.scale, ws}, {scale}));
    const std::string scaled = bias ? edit_.fresh(base + "_scaled") : n.outputs[0];
    edit_.insert_before(i, make_node("Mul", edit_.fresh(base + "_Mul"), {acc_f, scale}, {scaled}));
    if (bias) {
      ASSIGN_OR_RETURN(Tensor b, bias->reshaped(param_shape));
      const std::string b_name = edit_.add_initializer(n.inputs[2] + "_reshaped", b);
      edit_.insert_before(i, make_node("Add", edit_.fresh(base + "_bias_Add"), {scaled, b_name}, {n.outputs[0]}));
    }
    edit_.remove(i);
    summary_.weights_quantized += w.data.numel();
    return Status::ok();
  }

  Result<bool> matmul(size_t i) {
    const ir::Node& n = edit_.graph().nodes[i];
    const Tensor* b = n.inputs.size() == 2 ? constant(edit_.graph(), n.inputs[1]) : nullptr;
    if (!b || b->dtype() != DataType::kFloat || b->rank() != 2) return skip(n, "B is not a constant 2-D float32 tensor");
    ASSIGN_OR_RETURN(QuantizedWeights w, quantize_weights(*b, options_.per_channel, 1, options_.weight_limit()));
    TRY(integer_op(i, "MatMulInteger", w, nullptr, {b->dim(1)}));
    return true;
  }

  Result<bool> conv(size_t i) {
    const ir::Node& n = edit_.graph().nodes[i];
    const Tensor* w = n.inputs.size() >= 2 ? constant(edit_.graph(), n.inputs[1]) : nullptr;
    if (!w || w->dtype() != DataType::kFloat || w->rank() < 3) return skip(n, "W is not a constant float32 tensor");
    const Tensor* bias = n.inputs.size() == 3 && !n.inputs[2].empty() ? constant(edit_.graph(), n.inputs[2]) : nullptr;
    if (n.inputs.size() == 3 && !n.inputs[2].empty() && !bias) return skip(n, "B is not a constant");
    std::vector<int64_t> channel_shape(static_cast<size_t>(w->rank() - 1), 1);  // [M, 1, 1] broadcasts over [N, M, H, W]
    channel_shape[0] = w->dim(0);
    ASSIGN_OR_RETURN(QuantizedWeights q, quantize_weights(*w, options_.per_channel, 0, options_.weight_limit()));
    TRY(integer_op(i, "ConvInteger", q, bias, channel_shape));
    return true;
  }

  Result<bool> gather(size_t i) {
    const ir::Node n = edit_.graph().nodes[i];
    const Tensor* table = n.inputs.size() == 2 ? constant(edit_.graph(), n.inputs[0]) : nullptr;
    if (!table || table->dtype() != DataType::kFloat) return false;  // an index lookup, not a weight table
    ASSIGN_OR_RETURN(QuantizedWeights q, quantize_weights(*table, false, 0));
    const std::string& base = n.name.empty() ? n.outputs[0] : n.name;
    const std::string tq = edit_.add_initializer(n.inputs[0] + "_quantized", q.data);
    const std::string ts = edit_.add_initializer(n.inputs[0] + "_scale", q.scale);
    const std::string tz = edit_.add_initializer(n.inputs[0] + "_zero_point", q.zero);
    const std::string gathered = edit_.fresh(base + "_quantized");
    ir::Node g = make_node("Gather", edit_.fresh(base + "_Gather"), {tq, n.inputs[1]}, {gathered}, n.attributes);
    edit_.insert_before(i, std::move(g));
    edit_.insert_before(i, make_node("DequantizeLinear", edit_.fresh(base + "_DequantizeLinear"), {gathered, ts, tz},
                                     {n.outputs[0]}));
    edit_.remove(i);
    summary_.weights_quantized += q.data.numel();
    return true;
  }

  bool skip(const ir::Node& n, const std::string& why) {
    summary_.skipped.push_back(describe(n) + ": " + why);
    return false;
  }

  ir::Model& model_;
  const QuantizeOptions& options_;
  GraphEditor edit_;
  QuantizeSummary summary_;
  std::map<std::string, DynamicQ> dq_;
};

}  // namespace

Result<QuantizeSummary> quantize_dynamic(ir::Model& model, const QuantizeOptions& options) {
  TRY(prepare_graph(model));
  return DynamicRewriter(model, options).run();
}

}  // namespace twinrt::quantize
