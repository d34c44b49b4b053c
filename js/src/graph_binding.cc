// C ABI for the WebGPU executor (js/lib/webgpu/): the session's compiled plan as JSON,
// its constants on demand, and one step run on the WebAssembly kernels.
//
// JavaScript walks the steps in order and runs each on the GPU or, through
// twinrt_graph_run_step, on the same kernel the wasm session would use: the core stays
// synchronous and the fallback reuses the compiled plan (fused nodes included).
#include <emscripten/emscripten.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "binding.h"
#include "runtime/execute.h"
#include "runtime/session_impl.h"

namespace twinrt::wasm {
namespace {

using nlohmann::json;

// Non-finite floats become strings ("inf", "-inf", "nan"): JSON has no such numbers.
json float_json(float f) {
  if (std::isfinite(f)) return f;
  return std::isnan(f) ? "nan" : f > 0 ? "inf" : "-inf";
}

json attribute_json(const ir::Attribute& a) {
  using T = ir::Attribute::Type;
  switch (a.type) {
    case T::kFloat: return float_json(a.f);
    case T::kInt: return a.i;
    case T::kString: return a.s;
    case T::kInts: return a.ints;
    case T::kFloats: {
      json list = json::array();
      for (float f : a.floats) list.push_back(float_json(f));
      return list;
    }
    case T::kStrings: return a.strings;
    default: return json{{"unsupported", attribute_type_name(a.type)}};  // graphs, tensors: wasm only
  }
}

json names(const Subgraph& g, const std::vector<int>& slots) {
  json list = json::array();
  for (int s : slots) list.push_back(s < 0 ? std::string() : g.slot_names[static_cast<size_t>(s)]);
  return list;
}

json step_json(const Subgraph& g, const Step& step) {
  const ir::Node& n = *step.node;
  json attrs = json::object();
  for (const ir::Attribute& a : n.attributes) attrs[a.name] = attribute_json(a);
  json implicit = json::array();
  for (const auto& [name, slot] : step.implicit_inputs) implicit.push_back(name);
  json fused = json::object();
  if (n.fused_clamp)
    fused["clamp"] = {n.fused_clamp->min ? float_json(*n.fused_clamp->min) : json(),
                      n.fused_clamp->max ? float_json(*n.fused_clamp->max) : json()};
  // MatMul: Transposes folded into its reads and writes, a scale into its epilogue.
  if (!n.fused_perm_a.empty()) fused["permA"] = n.fused_perm_a;
  if (!n.fused_perm_b.empty()) fused["permB"] = n.fused_perm_b;
  if (!n.fused_perm_y.empty()) fused["permY"] = n.fused_perm_y;
  if (n.fused_scale != 1.0f) fused["scale"] = float_json(n.fused_scale);
  if (n.fused_bias) fused["bias"] = true;
  if (n.fused_residual) fused["residual"] = true;
  if (!n.elementwise_steps.empty()) {
    json steps = json::array();
    for (const ir::ElementwiseStep& e : n.elementwise_steps) {
      json params = json::array();
      for (float p : e.params) params.push_back(float_json(p));
      steps.push_back({{"op", e.op_type}, {"args", e.args}, {"params", params}});
    }
    fused["elementwise"] = steps;
    fused["firstInput"] = n.elementwise_first_input;
  }
  return {{"name", n.name}, {"op", n.op_type}, {"domain", n.domain}, {"inputs", names(g, step.inputs)},
          {"outputs", names(g, step.outputs)}, {"implicit", implicit}, {"attrs", attrs}, {"fused", fused}};
}

std::string g_graph_json;

// The element type the plan inferred for a slot (through optionals and sequences), or
// kUndefined where it is not known.
DataType slot_elements(const Subgraph& g, int slot) {
  if (static_cast<size_t>(slot) >= g.slot_types.size()) return DataType::kUndefined;
  const ir::TypeInfo* t = &g.slot_types[static_cast<size_t>(slot)];
  while ((t->kind == ir::TypeInfo::Kind::kOptional || t->kind == ir::TypeInfo::Kind::kSequence) && t->inner)
    t = t->inner.get();
  return t->kind == ir::TypeInfo::Kind::kTensor ? t->elem : DataType::kUndefined;
}

}  // namespace
}  // namespace twinrt::wasm

using namespace twinrt;
using namespace twinrt::wasm;

extern "C" {

// { opset, inputs, outputs, constants: [names], steps: [{name, op, domain, inputs, outputs,
// implicit, attrs, fused}] } of the main graph; valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* twinrt_graph_json(const SessionHandle* s) {
  const SessionImpl& impl = s->session->impl();
  const Subgraph& g = impl.plan();
  json constants = json::array();
  for (const auto& [slot, value] : g.constants) constants.push_back(g.slot_names[static_cast<size_t>(slot)]);
  json steps = json::array();
  for (const Step& step : g.steps) steps.push_back(step_json(g, step));
  json doc = {{"opset", impl.model().opset("")}, {"inputs", names(g, g.input_slots)},
              {"outputs", names(g, g.output_slots)}, {"constants", constants}, {"steps", steps}};
  g_graph_json = doc.dump();
  return g_graph_json.c_str();
}

// The constant (initializer or folded value) named `name` as a tensor; null when there is
// none or it is not a tensor.
EMSCRIPTEN_KEEPALIVE const Tensor* twinrt_graph_constant(const SessionHandle* s, const char* name) {
  const Subgraph& g = s->session->impl().plan();
  for (const auto& [slot, value] : g.constants)
    if (g.slot_names[static_cast<size_t>(slot)] == name && value.is_tensor()) return &value.tensor;
  return nullptr;
}

// Runs step `index` alone. `feeds` holds its non-constant inputs (and implicit inputs) by
// name; returns its outputs by name.
EMSCRIPTEN_KEEPALIVE Outputs* twinrt_graph_run_step(const SessionHandle* s, int index, const Feeds* feeds) {
  const SessionImpl& impl = s->session->impl();
  const Subgraph& g = impl.plan();
  if (index < 0 || static_cast<size_t>(index) >= g.steps.size())
    return fail<Outputs>(invalid_argument("no step " + std::to_string(index)));
  const Step& step = g.steps[static_cast<size_t>(index)];
  auto find = [&](const std::string& name) -> const Value* {
    for (const auto& [slot, value] : g.constants)
      if (g.slot_names[static_cast<size_t>(slot)] == name) return &value;
    auto it = feeds->values.find(name);
    return it == feeds->values.end() ? nullptr : &it->second;
  };
  std::vector<const Value*> in;
  for (int slot : step.inputs) {
    if (slot < 0) {
      in.push_back(nullptr);
      continue;
    }
    const std::string& name = g.slot_names[static_cast<size_t>(slot)];
    const Value* v = find(name);
    if (!v) return fail<Outputs>(invalid_argument(step.node->describe() + ": input '" + name + "' was not given"));
    // The executor feeds what earlier steps made; a GPU kernel that made the wrong type
    // must fail here, not have this step's kernel read past a tensor's end.
    if (const DataType want = slot_elements(g, slot); want != DataType::kUndefined)
      if (Status st = check_value_elements(*v, want, step.node->describe() + ": input '" + name + "'"); !st.is_ok())
        return fail<Outputs>(st);
    in.push_back(v);
  }
  std::vector<std::pair<std::string, const Value*>> implicit;
  for (const auto& [name, slot] : step.implicit_inputs) {
    const Value* v = find(name);
    if (!v) return fail<Outputs>(invalid_argument(step.node->describe() + ": outer value '" + name + "' was not given"));
    implicit.emplace_back(name, v);
  }
  std::vector<Value> results(step.outputs.size());
  std::vector<Value*> out;
  for (size_t i = 0; i < step.outputs.size(); ++i) out.push_back(step.outputs[i] < 0 ? nullptr : &results[i]);
  static ThreadPool single_thread(1);  // one node at a time: the executor does not split work
  ExecOptions options{impl.options().mode, &single_thread};
  KernelContext ctx(std::move(in), std::move(out), std::move(implicit), options);
  if (Status st = step.kernel->run(ctx); !st.is_ok()) {
    const std::string where = step.node->describe() + ": ";
    return fail<Outputs>(st.message().rfind(where, 0) == 0 ? st : st.with_context(where));
  }
  auto* outputs = new Outputs();
  for (size_t i = 0; i < step.outputs.size(); ++i)
    if (step.outputs[i] >= 0)
      outputs->entries.emplace_back(g.slot_names[static_cast<size_t>(step.outputs[i])], std::move(results[i]));
  return outputs;
}

}  // extern "C"
