// QDQ groups -> integer ops, the way ONNX Runtime runs QDQ models:
//   DequantizeLinear(x) , DequantizeLinear(w const) [, DequantizeLinear(bias int32 const)]
//     -> Conv [-> Relu] -> QuantizeLinear            => QLinearConv
//   DequantizeLinear(a) , DequantizeLinear(b const) -> MatMul -> QuantizeLinear => QLinearMatMul
//   DequantizeLinear(a) , DequantizeLinear(b const) [, DequantizeLinear(c int32 const)]
//     -> Gemm (float output)                                              => QGemm (ai.twinrt)
// Value-changing: the float Conv/MatMul rounds its sums of dequantized products, the
// integer op sums exactly and requantizes once, so outputs can differ by one step.
// A Relu is absorbed only when the output zero point is the type's minimum (then the
// quantization already maps every negative value to it, so nothing changes).
#include <optional>

#include "passes/graph_uses.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

const Tensor* initializer(const ir::Graph& g, const std::string& name) {
  auto it = g.initializers.find(name);
  return it == g.initializers.end() ? nullptr : &it->second;
}


// A DequantizeLinear/QuantizeLinear node's scale and zero point when both are constant
// initializers and it has no attribute but `axis`.
struct QParams {
  const ir::Node* node = nullptr;
  const Tensor* scale = nullptr;
  const Tensor* zero = nullptr;
  int64_t axis = 1;
};

std::optional<QParams> qparams(const ir::Graph& g, const ir::Node& n, const char* op) {
  if (n.op_type != op || !n.domain.empty() || n.inputs.size() != 3 || n.outputs.size() != 1) return std::nullopt;
  QParams p{&n, initializer(g, n.inputs[1]), initializer(g, n.inputs[2])};
  if (!p.scale || !p.zero || p.scale->dtype() != DataType::kFloat) return std::nullopt;
  for (const ir::Attribute& a : n.attributes) {
    if (a.name != "axis" || a.type != ir::Attribute::Type::kInt) return std::nullopt;
    p.axis = a.i;
  }
  return p;
}

bool per_tensor(const QParams& p) { return p.scale->numel() == 1 && p.zero->numel() == 1; }

// Per-tensor, or per-axis along `axis` of a rank-`rank` tensor with `count` entries.
bool per_tensor_or_axis(const QParams& p, int64_t rank, int64_t axis, int64_t count) {
  if (per_tensor(p)) return true;
  const int64_t a = p.axis < 0 ? p.axis + rank : p.axis;
  return a == axis && p.scale->rank() == 1 && p.scale->numel() == count && p.zero->numel() == count;
}

// Whether Relu before `q` changes nothing: q's zero point is its type's minimum.
bool relu_is_absorbed(const QParams& q) {
  if (q.zero->dtype() == DataType::kUInt8) return q.zero->data<uint8_t>()[0] == 0;
  return q.zero->data<int8_t>()[0] == -128;
}

// The int32 bias of a QLinearConv: a DequantizeLinear of an int32 constant with zero
// point 0 and scale x_scale * w_scale (as float products, what quantizers write).
bool bias_matches(const ir::Graph& g, const QParams& b, const QParams& x, const QParams& w, int64_t channels) {
  const Tensor* data = initializer(g, b.node->inputs[0]);
  if (!data || data->dtype() != DataType::kInt32 || data->rank() != 1 || data->numel() != channels) return false;
  if (b.zero->dtype() != DataType::kInt32) return false;
  for (int64_t i = 0; i < b.zero->numel(); ++i)
    if (b.zero->data<int32_t>()[i] != 0) return false;
  if (b.scale->numel() != 1 && b.scale->numel() != channels) return false;
  const float xs = x.scale->data<float>()[0];
  for (int64_t m = 0; m < channels; ++m) {
    const float ws = w.scale->data<float>()[w.scale->numel() == 1 ? 0 : m];
    if (b.scale->data<float>()[b.scale->numel() == 1 ? 0 : m] != xs * ws) return false;
  }
  return true;
}

class QdqFuser : ChainFuserState {
 public:
  using ChainFuserState::ChainFuserState;

  int run() {
    removed_.assign(g_.nodes.size(), false);
    int fused = 0;
    for (size_t i = 0; i < g_.nodes.size(); ++i) {
      const ir::Node& n = g_.nodes[i];
      if (n.domain.empty() && (n.op_type == "Conv" || n.op_type == "MatMul") && try_fuse(i)) ++fused;
      if (n.domain.empty() && n.op_type == "Gemm" && try_fuse_gemm(i)) ++fused;
    }
    drop_unread_dequantizers();
    erase_nodes(g_, removed_);
    return fused;
  }

 private:
  const ir::Node* producer(const std::string& value) const { return live_producer(g_, producer_, removed_, value); }
  std::optional<size_t> sole_reader(const std::string& value) const {
    return passes::sole_reader(g_, uses_, removed_, value);
  }

  bool try_fuse(size_t index) {
    const ir::Node& op = g_.nodes[index];
    const bool conv = op.op_type == "Conv";
    if (op.inputs.size() < 2 || op.outputs.size() != 1 || op.inputs.size() > (conv ? 3u : 2u)) return false;
    const ir::Node* dq_x = producer(op.inputs[0]);
    const ir::Node* dq_w = producer(op.inputs[1]);
    if (!dq_x || !dq_w) return false;
    auto x = qparams(g_, *dq_x, "DequantizeLinear");
    auto w = qparams(g_, *dq_w, "DequantizeLinear");
    const Tensor* w_data = w ? initializer(g_, dq_w->inputs[0]) : nullptr;
    if (!x || !w || !w_data || !per_tensor(*x) || !is_8bit(x->zero->dtype()) || w_data->dtype() != w->zero->dtype() ||
        !is_8bit(w_data->dtype()))
      return false;
    if (conv ? !per_tensor_or_axis(*w, w_data->rank(), 0, w_data->rank() > 0 ? w_data->dim(0) : 0)
             : w_data->rank() != 2 || !per_tensor_or_axis(*w, 2, 1, w_data->dim(1)))
      return false;
    // Conv [-> Relu] -> QuantizeLinear, each value read by the next node only.
    std::vector<size_t> chain = {index};
    std::optional<size_t> next = sole_reader(op.outputs[0]);
    bool relu = false;
    if (next && g_.nodes[*next].op_type == "Relu" && g_.nodes[*next].domain.empty()) {
      relu = true;
      chain.push_back(*next);
      next = sole_reader(g_.nodes[*next].outputs[0]);
    }
    if (!next) return false;
    auto y = qparams(g_, g_.nodes[*next], "QuantizeLinear");
    if (!y || !per_tensor(*y) || !is_8bit(y->zero->dtype()) || (relu && !relu_is_absorbed(*y))) return false;
    std::string bias;
    if (conv && op.inputs.size() == 3 && !op.inputs[2].empty()) {
      const ir::Node* dq_b = producer(op.inputs[2]);
      auto b = dq_b ? qparams(g_, *dq_b, "DequantizeLinear") : std::nullopt;
      if (!b || !bias_matches(g_, *b, *x, *w, w_data->dim(0))) return false;
      bias = dq_b->inputs[0];
    }
    chain.push_back(*next);

    ir::Node fused;
    fused.name = op.name;
    fused.op_type = conv ? "QLinearConv" : "QLinearMatMul";
    fused.attributes = op.attributes;
    fused.inputs = {dq_x->inputs[0], dq_x->inputs[1], dq_x->inputs[2], dq_w->inputs[0], dq_w->inputs[1],
                    dq_w->inputs[2], y->node->inputs[1], y->node->inputs[2]};
    if (!bias.empty()) fused.inputs.push_back(bias);
    fused.outputs = y->node->outputs;
    fused.fused_from = {dq_x->name, dq_w->name};
    for (size_t c = 1; c < chain.size(); ++c) fused.fused_from.push_back(g_.nodes[chain[c]].name);
    for (size_t c = 1; c < chain.size(); ++c) removed_[chain[c]] = true;
    g_.nodes[index] = std::move(fused);
    return true;
  }

  // A Gemm of two dequantized 8-bit operands (B constant, per tensor or per output column)
  // and an optional int32 bias quantized with a_scale * b_scale: QGemm with float output,
  // float(sums + C) * (a_scale * b_scale[j]), as ONNX Runtime runs it. alpha and beta must be 1.
  bool try_fuse_gemm(size_t index) {
    const ir::Node& op = g_.nodes[index];
    if (op.inputs.size() < 2 || op.inputs.size() > 3 || op.outputs.size() != 1) return false;
    int64_t trans_b = 0;
    for (const ir::Attribute& a : op.attributes) {
      if (a.name == "transA" || a.name == "transB") {
        if (a.type != ir::Attribute::Type::kInt) return false;
        if (a.name == "transB") trans_b = a.i;
      } else if (a.name != "alpha" && a.name != "beta") {
        return false;
      } else if (a.type != ir::Attribute::Type::kFloat || a.f != 1.0f) {
        return false;
      }
    }
    const ir::Node* dq_a = producer(op.inputs[0]);
    const ir::Node* dq_b = producer(op.inputs[1]);
    if (!dq_a || !dq_b) return false;
    auto a = qparams(g_, *dq_a, "DequantizeLinear");
    auto b = qparams(g_, *dq_b, "DequantizeLinear");
    const Tensor* b_data = b ? initializer(g_, dq_b->inputs[0]) : nullptr;
    if (!a || !b || !b_data || !per_tensor(*a) || !is_8bit(a->zero->dtype()) || b_data->dtype() != b->zero->dtype() ||
        !is_8bit(b_data->dtype()) || b_data->rank() != 2)
      return false;
    const int64_t n_axis = trans_b ? 0 : 1, n = b_data->dim(n_axis);
    if (!per_tensor_or_axis(*b, 2, n_axis, n)) return false;
    const ir::Node* dq_c = nullptr;
    if (op.inputs.size() == 3 && !op.inputs[2].empty()) {
      dq_c = producer(op.inputs[2]);
      auto c = dq_c ? qparams(g_, *dq_c, "DequantizeLinear") : std::nullopt;
      if (!c || !bias_matches(g_, *c, *a, *b, n)) return false;
    }
    ir::Node fused;
    fused.name = op.name;
    fused.op_type = "QGemm";
    fused.domain = ir::kInternalDomain;
    for (const ir::Attribute& attr : op.attributes)
      if (attr.name != "beta") fused.attributes.push_back(attr);  // 1: C is added to the sums
    fused.inputs = {dq_a->inputs[0], dq_a->inputs[1], dq_a->inputs[2], dq_b->inputs[0], dq_b->inputs[1], dq_b->inputs[2]};
    fused.outputs = op.outputs;
    fused.fused_from = {dq_a->name, dq_b->name};
    if (dq_c) {
      fused.inputs.push_back(dq_c->inputs[0]);
      fused.fused_from.push_back(dq_c->name);
    }
    g_.nodes[index] = std::move(fused);
    return true;
  }

  // Dequantizers whose float outputs nothing reads any more.
  void drop_unread_dequantizers() {
    std::map<std::string, int> readers;
    for (size_t i = 0; i < g_.nodes.size(); ++i)
      if (!removed_[i])
        for (const std::string& in : g_.nodes[i].inputs) ++readers[in];
    for (size_t i = 0; i < g_.nodes.size(); ++i) {
      const ir::Node& n = g_.nodes[i];
      if (n.op_type == "DequantizeLinear" && n.domain.empty() && n.outputs.size() == 1 && !readers[n.outputs[0]] &&
          !uses_.pinned.count(n.outputs[0]))
        removed_[i] = true;
    }
  }
};

}  // namespace

int fuse_qdq(ir::Model& model) {
  if (model.opset("") < 10) return 0;  // QLinearConv and QLinearMatMul arrived in opset 10
  return QdqFuser(*model.graph).run();
}

}  // namespace twinrt::passes
