// MatMul with a constant float32 B [k, n] followed by Add of a constant float32 bias [n]
// (PyTorch's Linear on inputs of rank 3 and more exports as these two) -> one MatMul that
// takes the bias as input 2 and adds it in the tile kernels' epilogue (kernels/gemm/
// f32_gemm.h), while C is still in registers. Bit-preserving: the product is rounded
// before the bias is added, as the separate Add does, and float addition is commutative.
// A bias of rank 1 broadcasts along the last axis only, so the output shape stays.
#include <algorithm>

#include "passes/graph_uses.h"
#include "passes/known_values.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

// B's columns when `n` is a MatMul this pass can give a bias, else 0.
int64_t columns_of(const KnownValues& known, const ir::Node& n) {
  if (!n.domain.empty() || n.op_type != "MatMul" || n.inputs.size() != 2 || n.outputs.size() != 1 || n.fused_bias ||
      n.fused_residual || n.fused_clamp)
    return 0;
  const Tensor* b = known.constant(n.inputs[1]);
  return b && b->dtype() == DataType::kFloat && b->rank() == 2 ? b->dim(1) : 0;
}

// A constant [columns] float32 bias that no feed can replace (an initializer that is also
// a graph input may be fed any shape the Add would broadcast).
bool is_bias(const ir::Graph& g, const KnownValues& known, const std::string& name, int64_t columns) {
  const Tensor* t = known.constant(name);
  if (!t || t->dtype() != DataType::kFloat || t->rank() != 1 || t->dim(0) != columns) return false;
  return std::none_of(g.inputs.begin(), g.inputs.end(), [&](const ir::ValueInfo& in) { return in.name == name; });
}

}  // namespace

int fuse_matmul_bias(ir::Model& model) {
  const ir::Graph& g = *model.graph;
  const KnownValues known(g);
  std::map<std::string, size_t> producers;  // output name -> index of the MatMul writing it
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (columns_of(known, g.nodes[i]) > 0) producers[g.nodes[i].outputs[0]] = i;
  return fold_adds_into_producers(
      model, std::move(producers),
      [&](const ir::Node& matmul, const std::string& bias) { return is_bias(g, known, bias, columns_of(known, matmul)); },
      [](ir::Node& matmul, const std::string& bias) {
        matmul.inputs.push_back(bias);
        matmul.fused_bias = true;
      });
}

}  // namespace twinrt::passes
