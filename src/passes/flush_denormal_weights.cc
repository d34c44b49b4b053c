// Subnormal float32 weights of Conv, ConvTranspose, Gemm and MatMul -> zeros of the same
// sign. On x86 a fused multiply-add of a subnormal and a normal number takes a microcode
// assist of about 150 cycles: in PaddleOCR's recognizer 22% of the squeeze-and-excitation
// weights are subnormal, and its 480 -> 120 1x1 convolution on one pixel took 0.75 ms instead
// of 0.03 (in WebAssembly under V8 the pass measured no change). Value-changing, so
// default mode only: a dropped product is below 2^-126 times the other factor, which changes
// a sum only when the sum itself is that small.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "passes/graph_uses.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

bool multiplies_weights(const ir::Node& n) {
  return n.domain.empty() &&
         (n.op_type == "Conv" || n.op_type == "ConvTranspose" || n.op_type == "Gemm" || n.op_type == "MatMul");
}

// A nonzero float32 with a zero exponent, by its bits: a test the compiler vectorizes (every
// weight of the model passes through it when a session is created).
bool subnormal_bits(uint32_t bits) { return (bits & 0x7fffffffu) - 1u < 0x007fffffu; }

bool has_subnormal(const Tensor& t) {
  const auto* bits = static_cast<const uint32_t*>(t.raw());
  uint32_t found = 0;  // not a bool: GCC leaves a bool reduction scalar
  for (int64_t i = 0; i < t.numel(); ++i) found |= subnormal_bits(bits[i]) ? 1u : 0u;
  return found != 0;
}

// `t` with its subnormal elements replaced by signed zeros, or nothing when out of memory
// (the pass then leaves the constant as it is).
std::optional<Tensor> flushed(const Tensor& t) {
  auto copy = Tensor::create(DataType::kFloat, t.shape());
  if (!copy.is_ok()) return std::nullopt;
  const auto* src = static_cast<const uint32_t*>(t.raw());
  auto* dst = static_cast<uint32_t*>(copy->raw());
  for (int64_t i = 0; i < t.numel(); ++i) dst[i] = subnormal_bits(src[i]) ? src[i] & 0x80000000u : src[i];
  return std::move(*copy);
}

}  // namespace

int flush_denormal_weights(ir::Model& model) {
  ir::Graph& g = *model.graph;
  // The constants by name: initializers and Constant nodes' values.
  std::map<std::string, Tensor*> constants;
  for (auto& [name, t] : g.initializers) constants[name] = &t;
  for (ir::Node& n : g.nodes)
    if (is_op(n, "Constant") && n.outputs.size() == 1)
      for (ir::Attribute& a : n.attributes)
        if (a.name == "value" && a.type == ir::Attribute::Type::kTensor) constants[n.outputs[0]] = &a.t;
  // Values some other node, a nested graph or the caller also sees keep their bits.
  std::set<std::string> elsewhere;
  for (const ir::ValueInfo& in : g.inputs) elsewhere.insert(in.name);
  for (const std::string& name : graph_uses(g).pinned) elsewhere.insert(name);
  std::set<std::string> weights;
  for (const ir::Node& n : g.nodes)
    for (const std::string& in : n.inputs)
      (multiplies_weights(n) ? weights : elsewhere).insert(in);
  int flushes = 0;
  for (const std::string& name : weights) {
    auto it = constants.find(name);
    if (it == constants.end() || elsewhere.count(name)) continue;
    Tensor& t = *it->second;
    if (t.dtype() != DataType::kFloat || !has_subnormal(t)) continue;
    if (std::optional<Tensor> f = flushed(t)) {
      t = std::move(*f);
      ++flushes;
    }
  }
  return flushes;
}

}  // namespace twinrt::passes
