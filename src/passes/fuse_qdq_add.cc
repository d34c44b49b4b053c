// QuantizeLinear([Relu](Add(DequantizeLinear(a), DequantizeLinear(b)))) -> QdqAdd
// (ops/quant/qdq_add.cc): the residual adds of QDQ models (ResNet), which otherwise stream
// three float tensors through memory. Bit-preserving: QdqAdd runs the same float operations
// per element as the four or five nodes. Only per-tensor parameters (constant scalar scale
// and zero point on every node), 8-bit a and b of one type, and inner values that nothing
// else reads.
#include <optional>

#include "passes/graph_uses.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

class QdqAddFuser : ChainFuserState {
 public:
  using ChainFuserState::ChainFuserState;

  int run() {
    return fuse_chains(g_, "QuantizeLinear", removed_, [this](size_t i) { return try_fuse(i); });
  }

 private:
  const Tensor* initializer(const std::string& name) const {
    auto it = g_.initializers.find(name);
    return it == g_.initializers.end() ? nullptr : &it->second;
  }

  bool per_tensor_8bit(const ir::Node& n) const { return per_tensor_8bit_scale(g_, n) != nullptr; }

  // The node that writes `value`, when only one node (the one being fused) reads it.
  std::optional<size_t> sole_producer(const std::string& value) const {
    auto it = producer_.find(value);
    if (it == producer_.end() || removed_[it->second] || !uses_.only_read_once(value)) return std::nullopt;
    return it->second;
  }

  bool try_fuse(size_t q_index) {
    const ir::Node& q = g_.nodes[q_index];
    if (!per_tensor_8bit(q)) return false;
    std::vector<size_t> chain;  // the nodes QdqAdd replaces besides q
    auto add = sole_producer(q.inputs[0]);
    bool relu = false;
    if (add && is_op(g_.nodes[*add], "Relu") && g_.nodes[*add].inputs.size() == 1 && g_.nodes[*add].attributes.empty()) {
      relu = true;
      chain.push_back(*add);
      add = sole_producer(g_.nodes[*add].inputs[0]);
    }
    if (!add || !is_op(g_.nodes[*add], "Add") || g_.nodes[*add].inputs.size() != 2) return false;
    chain.push_back(*add);
    const ir::Node* dq[2];
    for (int k = 0; k < 2; ++k) {
      auto d = sole_producer(g_.nodes[*add].inputs[static_cast<size_t>(k)]);
      if (!d || !is_op(g_.nodes[*d], "DequantizeLinear") || !per_tensor_8bit(g_.nodes[*d])) return false;
      dq[k] = &g_.nodes[*d];
      chain.push_back(*d);
    }
    if (initializer(dq[0]->inputs[2])->dtype() != initializer(dq[1]->inputs[2])->dtype()) return false;

    ir::Node fused;
    fused.name = g_.nodes[*add].name;
    fused.op_type = "QdqAdd";
    fused.domain = ir::kInternalDomain;
    fused.inputs = {dq[0]->inputs[0], dq[0]->inputs[1], dq[0]->inputs[2], dq[1]->inputs[0],
                    dq[1]->inputs[1], dq[1]->inputs[2], q.inputs[1],        q.inputs[2]};
    fused.outputs = q.outputs;
    ir::Attribute r;
    r.name = "relu";
    r.type = ir::Attribute::Type::kInt;
    r.i = relu ? 1 : 0;
    fused.attributes = {r};
    for (size_t c : chain)
      if (c != *add) fused.fused_from.push_back(g_.nodes[c].name);
    fused.fused_from.push_back(q.name);
    for (size_t c : chain) removed_[c] = true;
    g_.nodes[q_index] = std::move(fused);
    return true;
  }
};

}  // namespace

int fuse_qdq_add(ir::Model& model) {
  if (model.opset("") < 10) return 0;  // QuantizeLinear and DequantizeLinear arrived in opset 10
  return QdqAddFuser(*model.graph).run();
}

}  // namespace twinrt::passes
