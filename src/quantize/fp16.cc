// float16 conversion: every float32 initializer, Constant, Cast target and declared value
// type becomes float16, so the whole graph computes in float16. With keep_io_types the
// graph inputs and outputs stay float32 behind Cast nodes. With calibration inputs, float32
// islands (fp16_islands.h) are marked first and left as they are.
#include <set>

#include "kernels/math/half.h"
#include "quantize/fp16_islands.h"
#include "quantize/graph_edit.h"
#include "quantize/quantize.h"
#include "quantize/rewrite_common.h"

namespace twinrt::quantize {
namespace {

// Inputs that ONNX requires to be float32 whatever the data type (Resize's scales).
bool must_stay_float(const ir::Node& n, size_t input) { return n.op_type == "Resize" && input == 2; }

Result<Tensor> to_half(const Tensor& t) {
  std::vector<Float16> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = math::to_float16(t.data<float>()[i]);
  return Tensor::from_vector<Float16>(t.shape(), v);
}

void retype(ir::TypeInfo& t) {
  if (t.kind == ir::TypeInfo::Kind::kTensor && t.elem == DataType::kFloat) t.elem = DataType::kFloat16;
  if (t.inner) retype(*t.inner);
}

}  // namespace

Result<QuantizeSummary> convert_fp16(ir::Model& model, const QuantizeOptions& options,
                                     const std::vector<Feeds>& calibration,
                                     const std::function<void(size_t, size_t)>& progress) {
  TRY(prepare_graph(model));
  QuantizeSummary summary;
  std::set<std::string> island;  // outputs of the nodes that stay float32
  if (!calibration.empty()) {
    ASSIGN_OR_RETURN(Fp16Islands found, find_fp16_islands(model, calibration, progress));
    ASSIGN_OR_RETURN(island, mark_fp16_islands(model, found, summary));
  }
  ir::Graph& g = *model.graph;
  const auto in_island = [&](const ir::Node& n) { return !n.outputs.empty() && island.count(n.outputs[0]) > 0; };
  std::set<std::string> keep_float;
  for (const ir::Node& n : g.nodes)
    for (size_t i = 0; i < n.inputs.size(); ++i)
      if (must_stay_float(n, i)) keep_float.insert(n.inputs[i]);
  for (auto& [name, t] : g.initializers) {
    if (t.dtype() != DataType::kFloat || keep_float.count(name)) continue;
    ASSIGN_OR_RETURN(t, to_half(t));
    summary.weights_quantized += t.numel();
  }
  for (ir::Node& n : g.nodes) {
    if (in_island(n)) continue;
    for (ir::Attribute& a : n.attributes) {
      if (n.op_type == "Cast" && a.name == "to" && a.i == static_cast<int64_t>(DataType::kFloat))
        a.i = static_cast<int64_t>(DataType::kFloat16);
      if (n.op_type == "Constant" && a.type == ir::Attribute::Type::kTensor && a.t.dtype() == DataType::kFloat &&
          !keep_float.count(n.outputs.empty() ? "" : n.outputs[0])) {
        ASSIGN_OR_RETURN(a.t, to_half(a.t));
      }
    }
    ++summary.quantized[n.op_type];
  }
  for (auto& v : g.value_info)
    if (!island.count(v.name)) retype(v.type);
  GraphEditor edit(g);
  for (auto& v : g.inputs) {
    if (g.initializers.count(v.name) || v.type.elem != DataType::kFloat) continue;
    if (!options.keep_io_types) {
      retype(v.type);
      continue;
    }
    const std::string half = edit.fresh(v.name + "_fp16");
    for (ir::Node& n : g.nodes)
      for (std::string& in : n.inputs)
        if (in == v.name) in = half;
    edit.insert_after(std::string::npos, make_node("Cast", edit.fresh(v.name + "_Cast"), {v.name}, {half},
                                                   {int_attribute("to", static_cast<int64_t>(DataType::kFloat16))}));
  }
  for (auto& v : g.outputs) {
    if (v.type.elem != DataType::kFloat) continue;
    if (!options.keep_io_types) {
      retype(v.type);
      continue;
    }
    const size_t producer = edit.producer(v.name);
    if (producer == std::string::npos) continue;
    const std::string half = edit.fresh(v.name + "_fp16");
    for (ir::Node& n : g.nodes) {
      for (std::string& in : n.inputs)
        if (in == v.name) in = half;
      for (std::string& out : n.outputs)
        if (out == v.name) out = half;
    }
    edit.insert_after(producer, make_node("Cast", edit.fresh(v.name + "_Cast"), {half}, {v.name},
                                          {int_attribute("to", static_cast<int64_t>(DataType::kFloat))}));
  }
  edit.commit();
  return summary;
}

}  // namespace twinrt::quantize
