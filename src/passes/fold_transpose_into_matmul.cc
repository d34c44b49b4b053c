// Transposes around a MatMul -> the MatMul's strides (ops/nn/matmul_layout.h). A Transpose
// whose output only a MatMul reads is folded into that operand's read, and a Transpose that
// is the only reader of a MatMul's result and keeps its last axis last, into the writes.
// PyTorch's attention exports transpose Q, K and V into heads and the result back: four
// copies per layer, each a pass over the activations (BERT: 4% of its time at 2 threads).
// Bit-preserving: the product multiplies and sums the same values in the same order.
#include <algorithm>

#include "passes/graph_uses.h"
#include "passes/known_values.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

// The explicit perm of a Transpose when it is a permutation of at least 2 axes, else empty
// (a Transpose without perm, whose rank is only known when running, stays).
std::vector<int64_t> perm_of(const ir::Node& n) {
  const ir::Attribute* a = n.attr("perm");
  if (!is_op(n, "Transpose") || n.inputs.size() != 1 || n.outputs.size() != 1 || !a ||
      a->type != ir::Attribute::Type::kInts || a->ints.size() < 2)
    return {};
  std::vector<int64_t> sorted = a->ints;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != static_cast<int64_t>(i)) return {};
  return a->ints;
}

}  // namespace

int fold_transpose_into_matmul(ir::Model& model) {
  ir::Graph& g = *model.graph;
  const GraphUses uses = graph_uses(g);
  const KnownValues known(g);
  const std::map<std::string, size_t> producers = value_producers(g);
  std::map<std::string, size_t> readers;  // value -> index of the one node reading it
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const std::string& in : g.nodes[i].inputs) readers[in] = i;
  std::vector<bool> removed(g.nodes.size(), false);
  int folded = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!is_plain_matmul(g.nodes[i])) continue;
    for (size_t side = 0; side < 2; ++side) {
      ir::Node& matmul = g.nodes[i];
      std::vector<int64_t>& perm = side == 0 ? matmul.fused_perm_a : matmul.fused_perm_b;
      const auto p = producers.find(matmul.inputs[side]);
      if (!perm.empty() || p == producers.end() || removed[p->second] || !uses.only_read_once(matmul.inputs[side]))
        continue;
      const ir::Node& transpose = g.nodes[p->second];
      perm = perm_of(transpose);
      // A transposed constant (weights) stays a Transpose: the MatMul packs a constant B
      // once, in its stored layout.
      if (perm.empty() || known.constant(transpose.inputs[0])) {
        perm.clear();
        continue;
      }
      matmul.inputs[side] = transpose.inputs[0];
      matmul.fused_from.push_back(transpose.name);
      removed[p->second] = true;
      ++folded;
    }
    ir::Node& matmul = g.nodes[i];
    const auto r = readers.find(matmul.outputs[0]);
    if (r == readers.end() || !uses.only_read_once(matmul.outputs[0])) continue;
    const ir::Node& transpose = g.nodes[r->second];
    const std::vector<int64_t> perm = perm_of(transpose);
    if (perm.empty() || perm.back() != static_cast<int64_t>(perm.size()) - 1) continue;
    matmul.fused_perm_y = perm;
    matmul.outputs[0] = transpose.outputs[0];
    matmul.fused_from.push_back(transpose.name);
    removed[r->second] = true;
    ++folded;
  }
  erase_nodes(g, removed);
  return folded;
}

}  // namespace twinrt::passes
