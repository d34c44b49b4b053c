// What the fusion passes need to know about who reads a value, and how they drop nodes.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace twinrt::passes {

struct GraphUses {
  std::map<std::string, int> readers;  // how many node inputs name each value
  std::set<std::string> pinned;        // graph outputs and names nested graphs read

  // A value that one node reads and nothing else sees: its producer may be merged into
  // that reader.
  bool only_read_once(const std::string& name) const;
};

GraphUses graph_uses(const ir::Graph& g);

// Removes the nodes marked in `removed` (indexed like g.nodes), keeping the others' order.
void erase_nodes(ir::Graph& g, const std::vector<bool>& removed);

// Folds Add nodes into the node before them: for each Add (opset 7+, two distinct inputs)
// one of whose operands is the output of `producers` (output name -> node index) that only
// the Add reads, and whose other operand `fits` that producer, calls fold(producer, other
// operand); the producer then writes the Add's output and names it in fused_from, and the
// Add is removed. Each producer takes one Add. Returns how many were folded.
int fold_adds_into_producers(ir::Model& model, std::map<std::string, size_t> producers,
                             const std::function<bool(const ir::Node&, const std::string&)>& fits,
                             const std::function<void(ir::Node&, const std::string&)>& fold);

// Folds a node into the one before it: for each node reading outputs of `producers`
// (output name -> node index) that nothing else reads, calls fold(producer, follower, that
// output) on them in input order until one takes it (true); then the producer writes the
// follower's output and names it in fused_from, and the follower is removed. Returns how
// many were folded.
int fold_followers_into_producers(ir::Graph& g, std::map<std::string, size_t> producers,
                                  const std::function<bool(ir::Node&, const ir::Node&, const std::string&)>& fold);

// Folds nodes into the pointwise Conv (is_pointwise_conv) that alone reads their output, as
// its X: for each such pair, take(producer, conv) returns the inputs the fused node appends
// after the Conv's own (an absent bias becomes ""), or nothing to leave the pair as it is
// (it may add attributes to the Conv when it takes it). The Conv then reads the producer's
// input 0 as X, becomes `op_type` of twinrt's domain and names the producer (and what that
// absorbed) first in fused_from, and the producer is removed. Returns how many were folded.
int fold_into_pointwise_conv(
    ir::Graph& g, const char* op_type,
    const std::function<std::optional<std::vector<std::string>>(const ir::Node& producer, ir::Node& conv)>& take);

// Which node (index into g.nodes) writes each value.
std::map<std::string, size_t> value_producers(const ir::Graph& g);

// Whether `n` is `op` of `domain` (ai.onnx by default).
inline bool is_op(const ir::Node& n, const char* op, const char* domain = "") {
  return n.op_type == op && n.domain == domain;
}
// A MatMul with nothing fused after its product yet (scale, bias, residual, clamp).
inline bool is_plain_matmul(const ir::Node& n) {
  return is_op(n, "MatMul") && n.inputs.size() == 2 && n.outputs.size() == 1 && !n.fused_bias && !n.fused_residual &&
         !n.fused_clamp && n.fused_scale == 1.0f;
}
// BatchNormalization of inference (no training outputs or mode, one statistic per channel)
// with all five inputs present.
bool is_inference_batch_norm(const ir::Node& n);
// A Conv whose window is one position with stride 1 and no padding, in one group, with
// nothing fused into it but a residual and a clamp.
bool is_pointwise_conv(const ir::Node& n, const ir::Graph& g);
inline bool is_8bit(DataType t) { return t == DataType::kUInt8 || t == DataType::kInt8; }

// The scale of a Quantize/DequantizeLinear with a constant scalar float scale, an 8-bit
// constant scalar zero point and no attribute but axis (a per-tensor 8-bit node), or null.
const Tensor* per_tensor_8bit_scale(const ir::Graph& g, const ir::Node& n);

// For the chain fusers: the node that writes `value` (from value_producers), unless it is
// marked in `removed`, or null.
const ir::Node* live_producer(const ir::Graph& g, const std::map<std::string, size_t>& producers,
                              const std::vector<bool>& removed, const std::string& value);
// The only node not marked in `removed` that reads `value`, when nothing else reads or sees it.
std::optional<size_t> sole_reader(const ir::Graph& g, const GraphUses& uses, const std::vector<bool>& removed,
                                  const std::string& value);

// What every chain fuser keeps while it walks a graph: the graph, who reads and who writes
// each value, and the nodes it has absorbed so far (indexed like g.nodes).
struct ChainFuserState {
  explicit ChainFuserState(ir::Graph& g) : g_(g), uses_(graph_uses(g)), producer_(value_producers(g)) {}
  ir::Graph& g_;
  GraphUses uses_;
  std::map<std::string, size_t> producer_;
  std::vector<bool> removed_;
};

// The loop of the chain fusers: try_fuse(i) on every ai.onnx `op` node not yet marked in
// `removed` (which try_fuse marks the nodes it absorbs in), then the marked nodes erased.
// Returns how many chains were fused.
template <class TryFuse>
int fuse_chains(ir::Graph& g, const char* op, std::vector<bool>& removed, TryFuse&& try_fuse) {
  removed.assign(g.nodes.size(), false);
  int fused = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (!removed[i] && g.nodes[i].op_type == op && g.nodes[i].domain.empty() && try_fuse(i)) ++fused;
  erase_nodes(g, removed);
  return fused;
}

}  // namespace twinrt::passes
