// MatMulInteger -> Cast(float) -> Mul(·, Mul(a_scale, b_scale)) [-> Add(bias, ·)], the chain
// `twinrt quantize --dynamic` and ONNX Runtime's dynamic quantizer write per MatMul, becomes
// one MatMulIntegerToFloat node (ai.twinrt; the com.microsoft op's kernel,
// ops/contrib/matmul_to_float.cc) that scales each block of int32 sums while it is in cache
// instead of writing them out and reading them back twice. Bit-preserving: per element the
// kernel computes float(acc) * (a_scale * b_scale[j]) [+ bias[j]], the same float operations
// in the same order as the separate nodes (multiplication and addition commute exactly).
// Conditions: B a constant 2-D 8-bit matrix; a_scale a per-tensor scale (a DynamicQuantizeLinear
// scale or a one-element constant) and its zero point absent, per tensor likewise; b_scale a
// constant with 1 or N values (rank <= 1); bias a constant float [N]; inner values read by
// the chain only.
#include <optional>

#include "passes/graph_uses.h"
#include "passes/known_values.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

class ToFloatFuser : ChainFuserState {
 public:
  explicit ToFloatFuser(ir::Graph& g) : ChainFuserState(g), known_(g) {}

  int run() {
    return fuse_chains(g_, "MatMulInteger", removed_, [this](size_t i) { return try_fuse(i); });
  }

 private:
  std::optional<size_t> sole_reader(const std::string& value) const {
    return passes::sole_reader(g_, uses_, removed_, value);
  }
  const ir::Node* producer(const std::string& value) const { return live_producer(g_, producer_, removed_, value); }

  // A scale or zero point that is one value for the whole tensor: absent (zero points
  // only), a one-element constant, or DynamicQuantizeLinear's output `output`.
  bool per_tensor(const std::string& value, size_t output) const {
    if (value.empty()) return output == 2;
    if (const Tensor* t = known_.constant(value)) return t->numel() == 1 && t->rank() <= 1;  // no broadcast to more dims
    const ir::Node* p = producer(value);
    return p && is_op(*p, "DynamicQuantizeLinear") && p->outputs.size() > output && p->outputs[output] == value;
  }

  static bool casts_to_float(const ir::Node& n) {
    if (!is_op(n, "Cast") || n.inputs.size() != 1 || n.attributes.size() != 1) return false;
    const ir::Attribute& to = n.attributes[0];
    return to.name == "to" && to.type == ir::Attribute::Type::kInt && to.i == 1;  // TensorProto.FLOAT
  }

  // A float constant of rank <= 1 with n values (or 1 when scalar_ok); a bias must have rank 1.
  static bool is_float_vector(const Tensor* t, int64_t n, bool scalar_ok) {
    if (!t || t->dtype() != DataType::kFloat || t->rank() > 1) return false;
    return (t->numel() == n && (scalar_ok || t->rank() == 1)) || (scalar_ok && t->numel() == 1);
  }

  bool try_fuse(size_t mm_index) {
    const ir::Node& mm = g_.nodes[mm_index];
    if (mm.inputs.size() < 2 || mm.outputs.size() != 1) return false;
    const Tensor* b = known_.constant(mm.inputs[1]);
    if (!b || b->rank() != 2 || !is_8bit(b->dtype()) || b->numel() == 0) return false;
    const int64_t n = b->dim(1);
    const std::string a_zero = mm.inputs.size() > 2 ? mm.inputs[2] : "";
    const std::string b_zero = mm.inputs.size() > 3 ? mm.inputs[3] : "";
    if (!per_tensor(a_zero, 2)) return false;
    if (!b_zero.empty() && !known_.constant(b_zero)) return false;
    const auto cast = sole_reader(mm.outputs[0]);
    if (!cast || !casts_to_float(g_.nodes[*cast])) return false;
    const auto mul = sole_reader(g_.nodes[*cast].outputs[0]);
    if (!mul || !is_op(g_.nodes[*mul], "Mul") || g_.nodes[*mul].inputs.size() != 2) return false;
    const ir::Node& m = g_.nodes[*mul];
    const std::string& scale = m.inputs[0] == g_.nodes[*cast].outputs[0] ? m.inputs[1] : m.inputs[0];
    const ir::Node* scale_mul = producer(scale);
    if (!scale_mul || !is_op(*scale_mul, "Mul") || scale_mul->inputs.size() != 2) return false;
    // Which factor is a_scale: the per-tensor one that is not a constant vector of B's.
    std::string a_scale, b_scale;
    for (int k = 0; k < 2 && a_scale.empty(); ++k) {
      const std::string& x = scale_mul->inputs[static_cast<size_t>(k)];
      const std::string& y = scale_mul->inputs[static_cast<size_t>(1 - k)];
      const Tensor* xc = known_.constant(x);
      if (per_tensor(x, 1) && (!xc || xc->dtype() == DataType::kFloat) && is_float_vector(known_.constant(y), n, true))
        a_scale = x, b_scale = y;
    }
    if (a_scale.empty()) return false;
    // The optional bias: Add(bias, y) or Add(y, bias) with a constant float [N].
    const ir::Node* add = nullptr;
    std::string bias;
    if (const auto reader = sole_reader(m.outputs[0])) {
      const ir::Node& a = g_.nodes[*reader];
      const std::string& other = a.inputs.size() == 2 && a.inputs[0] == m.outputs[0] ? a.inputs[1] : a.inputs[0];
      if (is_op(a, "Add") && a.inputs.size() == 2 && is_float_vector(known_.constant(other), n, false)) {
        add = &a;
        bias = other;
        removed_[*reader] = true;
      }
    }
    ir::Node fused;
    fused.name = mm.name;
    fused.op_type = "MatMulIntegerToFloat";
    fused.domain = ir::kInternalDomain;
    fused.inputs = {mm.inputs[0], mm.inputs[1], a_scale, b_scale, a_zero, b_zero};
    if (!bias.empty()) fused.inputs.push_back(bias);
    fused.outputs = (add ? *add : m).outputs;
    for (size_t i : {*cast, *mul}) fused.fused_from.push_back(g_.nodes[i].name);
    if (add) fused.fused_from.push_back(add->name);
    removed_[*cast] = removed_[*mul] = true;
    // The scale product stays when something else reads it.
    if (uses_.only_read_once(scale)) {
      fused.fused_from.push_back(scale_mul->name);
      removed_[producer_.at(scale)] = true;
    }
    g_.nodes[mm_index] = std::move(fused);
    return true;
  }

  KnownValues known_;
};

}  // namespace

int fuse_matmul_integer_to_float(ir::Model& model) {
  if (model.opset("") < 10) return 0;  // MatMulInteger arrived in opset 10
  return ToFloatFuser(*model.graph).run();
}

}  // namespace twinrt::passes
