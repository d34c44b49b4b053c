// Model rewrites for per-layer comparison: every intermediate tensor made a graph output
// (so any engine, ONNX Runtime included, returns it by name), and the "own error" model
// in which every node reads another engine's values for its inputs.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::parity {

// Suffix of a node output in the own-error model: "conv_out" is computed as "conv_out::own".
inline constexpr const char* kOwnSuffix = "::own";

struct ExposedModel {
  ir::Model model;
  std::vector<std::string> intermediates;  // new graph outputs, in node order
  std::map<std::string, int64_t> bytes;    // size of each value whose shape twinrt infers
};

// Constant nodes hold parameters, like initializers: their outputs are not intermediates,
// and the own-error model keeps them, so a changed weight shows in its consumer's own error.
bool is_parameter_node(const ir::Node& node);

// The tensors that Constant nodes with a `value` attribute hold, by output name (the budget
// needs weight shapes; sparse and scalar-list forms are left out).
std::map<std::string, Tensor> parameter_values(const ir::Graph& graph);

// Adds each main-graph node output that is not already a graph output as an output.
// Values twinrt infers to be sequences/optionals/maps are left out (engines hand tensors
// back). `model` is taken as loaded from file (functions not inlined): names must match
// what other engines see. `dims` resolves symbolic dims for the sizes in `bytes`.
Result<ExposedModel> expose_intermediates(ir::Model model, const std::map<std::string, int64_t>& dims = {});

// `exposed.model` with exactly `outputs` (graph outputs of it) as graph outputs and only the
// nodes they need, so an engine computes and holds no more than that. Values in `given`
// (computed by an earlier run) become graph inputs where the kept nodes read them, so
// what came before them is not computed again; `fed` receives their names.
Result<ir::Model> model_with_outputs(const ExposedModel& exposed, const std::vector<std::string>& outputs,
                                     const std::map<std::string, Tensor>& given = {},
                                     std::vector<std::string>* fed = nullptr);

// The own-error model: each node's outputs are renamed with kOwnSuffix and every value it
// reads that another node produces becomes a graph input, typed from `values` (the other
// engine's tensors). Running it with those values as feeds gives each node's output from
// the other engine's inputs in one run. Nodes reading a value missing from `values` are
// dropped (localize then reports their own error as not measured). With `rerun`, only the
// nodes producing one of those tensors are re-run (Constant nodes are always kept).
struct OwnErrorModel {
  ir::Model model;
  std::vector<std::string> feeds;         // value names to feed, taken from `values`
  std::vector<std::string> outputs;       // "<tensor>::own" outputs
};
Result<OwnErrorModel> build_own_error_model(ir::Model model, const std::map<std::string, Tensor>& values,
                                           const std::set<std::string>* rerun = nullptr);

// A node's display name: its name, or "<op>#<index>" when the model left it empty.
std::string node_label(const ir::Node& node, size_t index);

}  // namespace twinrt::parity
