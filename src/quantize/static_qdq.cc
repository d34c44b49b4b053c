// Static quantization in the QDQ format: QuantizeLinear -> DequantizeLinear pairs on the
// activations that Conv, MatMul and Gemm read and produce (after a following Relu, which
// the uint8 zero point of 0 then makes redundant), DequantizeLinear on int8 weights and
// int32 biases. ONNX Runtime and twinrt's fuse_qdq pass turn each group into an integer op.
#include <map>
#include <optional>

#include "quantize/calibrate.h"
#include "quantize/graph_edit.h"
#include "quantize/quantize.h"
#include "quantize/rewrite_common.h"
#include "quantize/tensor_quant.h"

namespace twinrt::quantize {
namespace {

struct Target {
  size_t node;
  int64_t weight_axis;  // the output-channel axis of the weights
  bool quantize_bias;
};

bool is_graph_output(const ir::Graph& g, const std::string& v) {
  for (const auto& o : g.outputs)
    if (o.name == v) return true;
  return false;
}

int64_t int_attr_or(const ir::Node& n, const char* name, int64_t def) {
  const ir::Attribute* a = n.attr(name);
  return a && a->type == ir::Attribute::Type::kInt ? a->i : def;
}
float float_attr_or(const ir::Node& n, const char* name, float def) {
  const ir::Attribute* a = n.attr(name);
  return a && a->type == ir::Attribute::Type::kFloat ? a->f : def;
}

class StaticRewriter {
 public:
  StaticRewriter(ir::Model& model, const QuantizeOptions& options) : model_(model), options_(options) {}

  // The range of every activation the rewrite would quantize, from calibration runs.
  Result<ActivationRanges> calibrate_ranges(const std::vector<Feeds>& calibration,
                                            const std::function<void(size_t, size_t)>& progress) {
    TRY(find_targets_checked());
    return calibrate(model_, activations_, calibration, options_, progress);
  }

  Result<QuantizeSummary> write(const ActivationRanges& ranges) {
    TRY(find_targets_checked());
    for (const std::string& v : activations_)
      if (!ranges.count(v)) return invalid_argument("no calibrated range for activation '" + v + "'");
    ranges_ = ranges;
    GraphEditor edit(*model_.graph);
    for (const std::string& v : activations_) insert_qdq(edit, v);
    for (const Target& t : targets_) TRY(quantize_weights_of(edit, t));
    edit.commit();
    return summary_;
  }

 private:
  Status find_targets_checked() {
    const int64_t needed = options_.per_channel ? 13 : 10;
    if (model_.opset("") < needed)
      return invalid_argument(std::string("static ") + (options_.per_channel ? "per-channel " : "") +
                              "quantization needs ai.onnx opset " + std::to_string(needed) +
                              " or later; the model imports " + std::to_string(model_.opset("")));
    find_targets();
    if (targets_.empty()) return invalid_argument("no Conv, MatMul or Gemm with constant float32 weights to quantize");
    return Status::ok();
  }

  // Nodes to quantize and the activation values around them, in graph order.
  void find_targets() {
    const ir::Graph& g = *model_.graph;
    std::map<std::string, std::vector<size_t>> readers;
    for (size_t i = 0; i < g.nodes.size(); ++i)
      for (const std::string& in : g.nodes[i].inputs) readers[in].push_back(i);
    std::set<std::string> graph_outputs;
    for (const auto& o : g.outputs) graph_outputs.insert(o.name);
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      const ir::Node& n = g.nodes[i];
      if (!n.domain.empty() || is_excluded(options_, n) || n.outputs.size() != 1) continue;
      std::optional<Target> t = target(n, i);
      if (!t) continue;
      targets_.push_back(*t);
      add_activation(n.inputs[0]);
      // The output, or the output of a Relu that alone reads it.
      std::string out = n.outputs[0];
      const auto& r = readers[out];
      if (r.size() == 1 && !graph_outputs.count(out) && g.nodes[r[0]].op_type == "Relu" && g.nodes[r[0]].domain.empty())
        out = g.nodes[r[0]].outputs[0];
      // A graph output stays float; it gets a pair only where that lets Conv/MatMul run
      // as an integer op (a Gemm's output, e.g. a classifier's logits, would only lose
      // precision).
      if (!graph_outputs.count(out) || n.op_type != "Gemm") add_activation(out);
    }
  }

  std::optional<Target> target(const ir::Node& n, size_t i) {
    const ir::Graph& g = *model_.graph;
    const Tensor* w = n.inputs.size() >= 2 ? constant(g, n.inputs[1]) : nullptr;
    if (n.op_type != "Conv" && n.op_type != "MatMul" && n.op_type != "Gemm") return std::nullopt;
    if (!w || w->dtype() != DataType::kFloat || constant(g, n.inputs[0])) {
      summary_.skipped.push_back(describe(n) + ": weights are not a constant float32 tensor");
      return std::nullopt;
    }
    const bool has_bias = n.inputs.size() == 3 && !n.inputs[2].empty();
    const Tensor* bias = has_bias ? constant(g, n.inputs[2]) : nullptr;
    if (n.op_type == "Conv" && w->rank() >= 3) return Target{i, 0, bias && bias->rank() == 1};
    if (n.op_type == "MatMul" && w->rank() == 2) return Target{i, 1, false};
    if (n.op_type == "Gemm" && w->rank() == 2 && int_attr_or(n, "transA", 0) == 0) {
      const bool plain = float_attr_or(n, "alpha", 1.0f) == 1.0f && float_attr_or(n, "beta", 1.0f) == 1.0f;
      return Target{i, int_attr_or(n, "transB", 0) ? 0 : 1, plain && bias && bias->rank() == 1};
    }
    summary_.skipped.push_back(describe(n) + ": unsupported weight layout");
    return std::nullopt;
  }

  void add_activation(const std::string& v) {
    if (seen_.insert(v).second) activations_.push_back(v);
  }

  // v -> QuantizeLinear -> DequantizeLinear, every reader of v reading the dequantized value.
  void insert_qdq(GraphEditor& edit, const std::string& v) {
    const auto [lo, hi] = ranges_.at(v);
    const ActivationParams p = activation_params(lo, hi, options_.int8_activations, options_.symmetric_activations);
    auto scale = Tensor::from_vector<float>({}, {p.scale});
    auto zero = options_.int8_activations ? Tensor::from_vector<int8_t>({}, {static_cast<int8_t>(p.zero)})
                                          : Tensor::from_vector<uint8_t>({}, {static_cast<uint8_t>(p.zero)});
    const std::string s = edit.add_initializer(v + "_scale", *scale);
    const std::string z = edit.add_initializer(v + "_zero_point", *zero);
    const size_t after = edit.producer(v);
    std::string source = v, dq = edit.fresh(v + "_dequantized");
    if (is_graph_output(edit.graph(), v) && after != std::string::npos) {
      // The producer writes a new name and the pair writes the graph output, so nothing
      // outside the pair reads the float value (runtimes can then fuse the group).
      source = edit.fresh(v + "_float");
      for (std::string& out : edit.graph().nodes[after].outputs)
        if (out == v) out = source;
      dq = v;
    }
    const std::string q = edit.fresh(v + "_quantized");
    // Nodes kept in float (--exclude, --exclude-op, the search) read the float value. Fed
    // from a DequantizeLinear, an excluded Conv with float weights gave ONNX Runtime 1.30
    // (graph optimization basic and up) the quantized Conv's result (quantize_options.sh).
    for (ir::Node& n : edit.graph().nodes)
      for (std::string& in : n.inputs)
        if (in == v) in = is_excluded(options_, n) ? source : dq;
    edit.insert_after(after, make_node("QuantizeLinear", edit.fresh(v + "_QuantizeLinear"), {source, s, z}, {q}));
    edit.insert_after(after, make_node("DequantizeLinear", edit.fresh(v + "_DequantizeLinear"), {q, s, z}, {dq}));
    scales_[dq] = p.scale;
  }

  Status quantize_weights_of(GraphEditor& edit, const Target& t) {
    ir::Node& n = edit.graph().nodes[t.node];
    const Tensor& w = *constant(edit.graph(), n.inputs[1]);
    ASSIGN_OR_RETURN(QuantizedWeights q, quantize_weights(w, options_.per_channel, t.weight_axis, options_.weight_limit()));
    std::vector<ir::Attribute> axis;
    if (options_.per_channel) axis.push_back(int_attribute("axis", t.weight_axis));
    const std::string base = n.inputs[1];
    const std::string wq = edit.add_initializer(base + "_quantized", q.data);
    const std::string ws = edit.add_initializer(base + "_scale", q.scale);
    const std::string wz = edit.add_initializer(base + "_zero_point", q.zero);
    const std::string wdq = edit.fresh(base + "_dequantized");
    edit.insert_before(t.node, make_node("DequantizeLinear", edit.fresh(base + "_DequantizeLinear"), {wq, ws, wz}, {wdq}, axis));
    n.inputs[1] = wdq;
    summary_.weights_quantized += q.data.numel();
    ++summary_.quantized[n.op_type];
    summary_.quantized_nodes.push_back(n.name);
    if (!t.quantize_bias) return Status::ok();
    auto x_scale = scales_.find(n.inputs[0]);
    if (x_scale == scales_.end()) return Status::ok();
    const std::string bias_name = n.inputs[2];
    Tensor bias_scale;
    ASSIGN_OR_RETURN(Tensor bq, quantize_bias(*constant(edit.graph(), bias_name), x_scale->second, q.scale, bias_scale));
    auto zeros = Tensor::from_vector<int32_t>({bq.numel()}, std::vector<int32_t>(static_cast<size_t>(bq.numel()), 0));
    const std::string bqn = edit.add_initializer(bias_name + "_quantized", bq);
    const std::string bsn = edit.add_initializer(bias_name + "_scale", bias_scale);
    const std::string bzn = edit.add_initializer(bias_name + "_zero_point", *zeros);
    const std::string bdq = edit.fresh(bias_name + "_dequantized");
    edit.insert_before(t.node, make_node("DequantizeLinear", edit.fresh(bias_name + "_DequantizeLinear"), {bqn, bsn, bzn},
                                         {bdq}, {int_attribute("axis", 0)}));
    n.inputs[2] = bdq;
    return Status::ok();
  }

  ir::Model& model_;
  const QuantizeOptions& options_;
  QuantizeSummary summary_;
  std::vector<Target> targets_;
  std::vector<std::string> activations_;
  std::set<std::string> seen_;
  ActivationRanges ranges_;
  std::map<std::string, float> scales_;  // dequantized activation -> its scale
};

}  // namespace

Result<ActivationRanges> calibrate_static(const ir::Model& model, const QuantizeOptions& options,
                                          const std::vector<Feeds>& calibration,
                                          const std::function<void(size_t, size_t)>& progress) {
  ir::Model copy = model;
  TRY(prepare_graph(copy));
  return StaticRewriter(copy, options).calibrate_ranges(calibration, progress);
}

Result<QuantizeSummary> write_static_qdq(ir::Model& model, const QuantizeOptions& options,
                                         const ActivationRanges& ranges) {
  TRY(prepare_graph(model));
  return StaticRewriter(model, options).write(ranges);
}

Result<QuantizeSummary> quantize_static(ir::Model& model, const QuantizeOptions& options,
                                        const std::vector<Feeds>& calibration,
                                        const std::function<void(size_t, size_t)>& progress) {
  ASSIGN_OR_RETURN(ActivationRanges ranges, calibrate_static(model, options, calibration, progress));
  return write_static_qdq(model, options, ranges);
}

}  // namespace twinrt::quantize
