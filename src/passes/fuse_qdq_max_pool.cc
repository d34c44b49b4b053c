// QuantizeLinear(MaxPool(DequantizeLinear(x))) -> MaxPool(x) on the 8-bit x, when both
// ends have the same per-tensor scale and zero point: the pool of QDQ models (ResNet's stem),
// which otherwise turns the whole tensor into floats and back. Bit-preserving:
// - DequantizeLinear is (x - z) * s, increasing in x for s > 0, so the window's largest
//   float is the dequantized largest byte (MaxPool ignores padding, so no zero enters);
// - QuantizeLinear gives it back: for an integer n with |n| <= 255 and a normal s,
//   fl(fl(n * s) / s) is n within 255 * 2^-22, far from the rounding's half, and n + z is
//   the byte itself, so nothing saturates.
// So the fused pool returns the bytes the three nodes write. Not for subnormal, negative
// or huge scales, or when the Indices output, the float values or the pool are read
// elsewhere.
#include <cmath>
#include <cstring>
#include <limits>

#include "passes/graph_uses.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

class QdqMaxPoolFuser : ChainFuserState {
 public:
  using ChainFuserState::ChainFuserState;

  int run() {
    return fuse_chains(g_, "QuantizeLinear", removed_, [this](size_t i) { return try_fuse(i); });
  }

 private:
  // The scale of a per-tensor Quantize/DequantizeLinear when dequantizing and quantizing
  // again returns every byte: normal, positive, and 255 * s finite.
  const Tensor* round_trip_scale(const ir::Node& n) const {
    const Tensor* s = per_tensor_8bit_scale(g_, n);
    if (!s) return nullptr;
    const float v = s->data<float>()[0];
    return std::isnormal(v) && v > 0 && v <= std::numeric_limits<float>::max() / 256 ? s : nullptr;
  }

  bool try_fuse(size_t q_index) {
    const ir::Node& q = g_.nodes[q_index];
    const Tensor* q_scale = round_trip_scale(q);
    const ir::Node* pool = live_producer(g_, producer_, removed_, q.inputs[0]);
    if (!q_scale || !pool || !is_op(*pool, "MaxPool") || pool->outputs.size() != 1 || !uses_.only_read_once(q.inputs[0]))
      return false;
    const ir::Node* dq = live_producer(g_, producer_, removed_, pool->inputs[0]);
    if (!dq || !is_op(*dq, "DequantizeLinear") || !uses_.only_read_once(pool->inputs[0])) return false;
    const Tensor* dq_scale = round_trip_scale(*dq);
    if (!dq_scale || std::memcmp(dq_scale->data<float>(), q_scale->data<float>(), sizeof(float)) != 0) return false;
    const Tensor& q_zero = g_.initializers.at(q.inputs[2]);
    const Tensor& dq_zero = g_.initializers.at(dq->inputs[2]);
    if (q_zero.dtype() != dq_zero.dtype() || q_zero.data<uint8_t>()[0] != dq_zero.data<uint8_t>()[0]) return false;

    ir::Node fused = *pool;
    fused.inputs[0] = dq->inputs[0];
    fused.outputs = q.outputs;
    fused.fused_from.push_back(dq->name);
    fused.fused_from.push_back(q.name);
    removed_[producer_.at(pool->inputs[0])] = true;
    removed_[producer_.at(q.inputs[0])] = true;
    g_.nodes[q_index] = std::move(fused);
    return true;
  }
};

}  // namespace

int fuse_qdq_max_pool(ir::Model& model) {
  if (model.opset("") < 12) return 0;  // MaxPool takes 8-bit tensors from opset 12
  return QdqMaxPoolFuser(*model.graph).run();
}

}  // namespace twinrt::passes
