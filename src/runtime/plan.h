// A compiled graph: every value gets a slot index, every node a chosen kernel, and the
// plan records after which step each slot can be freed. Nested graphs (If/Loop/Scan
// bodies) compile to their own Subgraph and read enclosing values through `outer`.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "ops/op.h"

namespace twinrt {

struct Step {
  const ir::Node* node = nullptr;
  std::unique_ptr<OpKernel> kernel;
  std::vector<int> inputs;   // slot per node input; -1 for omitted
  std::vector<int> outputs;  // slot per node output; -1 for omitted
  // Values of enclosing scopes that this node's subgraphs read: name -> slot here.
  std::vector<std::pair<std::string, int>> implicit_inputs;
  std::vector<int> free_after;  // slots whose last reader is this step
};

class Subgraph {
 public:
  std::string name;
  int num_slots = 0;
  std::vector<ir::ValueInfo> inputs;     // declared graph inputs that are fed (not initializers)
  std::vector<int> input_slots;
  std::vector<ir::ValueInfo> outputs;
  std::vector<int> output_slots;
  // Initializers that may be overridden by a feed of the same name (IR < 4 models list
  // them as graph inputs too).
  std::vector<std::pair<std::string, int>> overridable;
  std::vector<std::pair<int, Value>> constants;  // initializer values, set before each run
  std::vector<Step> steps;
  std::vector<std::string> outer_names;  // values read from enclosing graphs
  std::vector<int> outer_slots;
  std::vector<ir::TypeInfo> slot_types;  // inferred type per slot (kUnknown where not known)
  std::vector<std::string> slot_names;
};

struct CompileOptions {
  Mode mode = Mode::kDefault;
  std::map<std::string, int64_t> dim_overrides;
  Isa isa = Isa::kAuto;  // resolved (TWINRT_ISA, CPU) by compile_model
  bool lenient = false;                         // unknown attributes are warnings, not errors
  std::vector<std::string>* warnings = nullptr;  // receives the warnings when set
  // The session owns every view of the model file's bytes: once all readers of an
  // initializer keep their own copy (packed weights) or were folded, its pages are released.
  bool release_kept_constants = false;
  // Default mode may pick value-changing kernels (KernelInit::value_changing_kernels).
  bool value_changing_kernels = true;
};

// Compiles the main graph of `model`. The model must outlive the result (steps point
// at its nodes).
Result<std::shared_ptr<const Subgraph>> compile_model(const ir::Model& model,
                                                      const CompileOptions& options);

}  // namespace twinrt
