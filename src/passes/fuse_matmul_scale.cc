// MatMul followed by a Mul by a constant float32 scalar, or a Div by a constant power of
// two (attention's scores / sqrt(head size) for head sizes 4^k: 8 for 64) -> one MatMul
// that scales its product in the tile kernels' epilogue (F32Epilogue::alpha), before any
// bias, residual or clamp fused after it. Bit-preserving: the product is rounded, then
// multiplied once, as the separate Mul does; dividing by 2^e and multiplying by 2^-e round
// the same real number.
#include <cmath>

#include "passes/graph_uses.h"
#include "passes/known_values.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

// A rank-0 float32 constant that no feed can replace (a rank-0 operand never changes the
// product's shape).
std::optional<float> scalar_constant(const ir::Graph& g, const KnownValues& known, const std::string& name) {
  const Tensor* t = known.constant(name);
  if (!t || t->dtype() != DataType::kFloat || t->rank() != 0) return std::nullopt;
  for (const ir::ValueInfo& in : g.inputs)
    if (in.name == name) return std::nullopt;
  return t->data<float>()[0];
}

// 1 / d when that is exact and both are normal floats (d a power of two), else none.
std::optional<float> exact_reciprocal(float d) {
  int exponent = 0;
  if (!std::isnormal(d) || std::frexp(d, &exponent) != 0.5f) return std::nullopt;
  const float r = 1.0f / d;
  return std::isnormal(r) ? std::optional(r) : std::nullopt;
}

// The factor `n` multiplies `product` by, when it is such a Mul or Div, else none.
std::optional<float> scale_of(const ir::Graph& g, const KnownValues& known, const ir::Node& n,
                              const std::string& product) {
  if (n.inputs.size() != 2 || n.outputs.size() != 1) return std::nullopt;
  if (is_op(n, "Mul")) {
    if (n.inputs[0] == n.inputs[1]) return std::nullopt;
    return scalar_constant(g, known, n.inputs[n.inputs[0] == product ? 1 : 0]);
  }
  if (is_op(n, "Div") && n.inputs[0] == product) {
    const std::optional<float> d = scalar_constant(g, known, n.inputs[1]);
    return d ? exact_reciprocal(*d) : std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

int fuse_matmul_scale(ir::Model& model) {
  ir::Graph& g = *model.graph;
  const KnownValues known(g);
  std::map<std::string, size_t> matmul_of;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (is_plain_matmul(g.nodes[i])) matmul_of[g.nodes[i].outputs[0]] = i;
  return fold_followers_into_producers(
      g, std::move(matmul_of), [&](ir::Node& matmul, const ir::Node& op, const std::string& product) {
        const std::optional<float> scale = scale_of(g, known, op, product);
        if (scale) matmul.fused_scale = *scale;
        return scale.has_value();
      });
}

}  // namespace twinrt::passes
