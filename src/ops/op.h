// The contract between the runtime and an operator implementation.
//
// An op file registers a factory with TWINRT_REGISTER_OP. When a session is created,
// the runtime calls the factory once per node with a KernelInit (attributes, opset,
// input types, constant inputs, mode); the factory validates the node and returns an
// OpKernel, or an error naming what is wrong. The kernel is immutable afterwards:
// `run` may be called from several threads at once.
//
// See docs/adding-an-op.md for a walk-through.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "twinrt/session.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt {

class ThreadPool;
class Subgraph;  // a compiled nested graph (If/Loop/Scan bodies), owned by the runtime

// Everything known about a node when its kernel is created.
class KernelInit {
 public:
  const ir::Node& node;
  int64_t opset;   // version of the node's domain imported by the model
  Mode mode;
  std::vector<ir::TypeInfo> input_types;          // kUnknown where not known
  std::vector<const Tensor*> constant_inputs;     // non-null for initializers
  // Compiles a nested graph attribute; names it uses from enclosing scopes are resolved
  // by the runtime.
  std::function<Result<std::shared_ptr<const Subgraph>>(const ir::Graph&)> compile_subgraph;
  // The graph that holds the node (ai.onnx.preview.training Gradient differentiates part of it).
  const ir::Graph* graph = nullptr;
  // The instruction-set tier for fast kernels, resolved from the session (never kAuto).
  Isa isa = Isa::kScalar;
  // Whether default mode may pick kernels that change values beyond reordering (Winograd
  // convolutions), like the value-changing graph passes: `--optimization all` only.
  bool value_changing_kernels = true;
  // Names of the attributes the factory asked for (through attr, attr_*, has_attr). An op
  // declares the attributes it accepts by reading them: after the factory, a node attribute
  // no factory asked for is unknown to the op (a typo such as 'strdes') and compile fails.
  mutable std::set<std::string> attributes_read{};

  size_t num_inputs() const { return node.inputs.size(); }
  bool has_input(size_t i) const { return i < node.inputs.size() && !node.inputs[i].empty(); }
  size_t num_outputs() const { return node.outputs.size(); }
  DataType input_dtype(size_t i) const;  // kUndefined when unknown or absent

  // Attribute access: the default is returned when the attribute is absent; a present
  // attribute of the wrong type is an error.
  Result<int64_t> attr_int(const std::string& name, int64_t def) const;
  Result<float> attr_float(const std::string& name, float def) const;
  Result<std::string> attr_string(const std::string& name, const std::string& def) const;
  Result<std::vector<int64_t>> attr_ints(const std::string& name, std::vector<int64_t> def = {}) const;
  Result<std::vector<float>> attr_floats(const std::string& name, std::vector<float> def = {}) const;
  Result<std::vector<std::string>> attr_strings(const std::string& name,
                                                std::vector<std::string> def = {}) const;
  Result<Tensor> attr_tensor(const std::string& name) const;  // error when absent
  bool has_attr(const std::string& name) const { return attr(name) != nullptr; }
  // The attribute, or null when absent. Ops read attributes only through KernelInit, never
  // through `node` directly, so that the read is recorded.
  const ir::Attribute* attr(const std::string& name) const;
  // Accepts attributes the op knows but ignores (e.g. deprecated ones).
  void accept_attributes(std::initializer_list<const char*> names) const;

  // An error Status prefixed with the node's description.
  Status error(const std::string& message) const;
  Status unsupported(const std::string& message) const;
};

// Static inference: input types/shapes (and constant values) in, output types out.
struct InferContext {
  const ir::Node& node;
  int64_t opset;
  std::vector<ir::TypeInfo> input_types;       // kUnknown when not known
  std::vector<const Tensor*> constant_inputs;  // known values (initializers, Constant outputs)
  std::vector<ir::TypeInfo> output_types;      // to be filled; pre-sized to num outputs
  // Outputs whose values follow from types alone (Shape of a static shape). When every
  // output of a node is known here, the node becomes a constant and never runs.
  std::vector<Value> output_values = std::vector<Value>(output_types.size());

  bool has_input(size_t i) const { return i < node.inputs.size() && !node.inputs[i].empty(); }
  // The input's dims when its shape is fully known.
  std::optional<std::vector<int64_t>> static_shape(size_t i) const;
  const ir::Shape* shape(size_t i) const;  // null when rank unknown
  DataType dtype(size_t i) const;
  void set_output(size_t i, DataType dtype, std::optional<ir::Shape> shape = std::nullopt);
  void set_output(size_t i, DataType dtype, const std::vector<int64_t>& dims);
  // Output `out` has input `in`'s dtype and shape (as far as they are known).
  void same_as_input(size_t out, size_t in);
};

// What a kernel sees at run time.
class RunContext {
 public:
  virtual ~RunContext() = default;

  virtual size_t num_inputs() const = 0;
  // Null when the input is omitted ("" in the node) or past the end.
  virtual const Value* input_value(size_t i) const = 0;
  bool has_input(size_t i) const { return input_value(i) != nullptr; }
  // The input as a tensor; requires has_input(i) and a tensor value (checked by
  // `tensor_input`, which returns an error instead).
  const Tensor& input(size_t i) const { return input_value(i)->tensor; }
  Result<const Tensor*> tensor_input(size_t i) const;

  virtual size_t num_outputs() const = 0;
  virtual bool output_requested(size_t i) const = 0;  // false for omitted ("") outputs
  // Allocates output i (zero-filled) and returns it.
  virtual Result<Tensor*> output(size_t i, DataType dtype, std::vector<int64_t> shape) = 0;
  // The same without the zero fill, for kernels that write every element of the output.
  virtual Result<Tensor*> output_for_overwrite(size_t i, DataType dtype, std::vector<int64_t> shape) = 0;
  // Sets output i to an existing value (views, sequences, optionals).
  virtual void set_output(size_t i, Value v) = 0;

  virtual Mode mode() const = 0;
  virtual ThreadPool& pool() const = 0;
  // Runs a nested graph with the given inputs; the outer scope is the current graph.
  virtual Result<std::vector<Value>> run_subgraph(const Subgraph& g, std::vector<Value> inputs) = 0;
};

class OpKernel {
 public:
  virtual ~OpKernel() = default;
  // Fills ctx.output_types with what can be known before running. The default knows
  // nothing; every op should at least give output dtypes.
  virtual Status infer(InferContext& ctx) const;
  virtual Status run(RunContext& ctx) const = 0;
  // True when the kernel keeps its own copy of constant input `i` (weights packed when the
  // session is created) and never reads its bytes while running, unless a feed replaces
  // it: a session that owns the model's bytes may then release them (runtime/compile.cc).
  virtual bool keeps_copy_of_input(size_t i) const {
    (void)i;
    return false;
  }
  // True when an output of this shape is the inputs' bytes laid end to end, in input order
  // (a Concat whose dimensions before the axis are all 1). The arena planner may then place
  // each input at its part of the output (runtime/arena.cc), and run() must leave an input
  // that is already there as it is.
  virtual bool output_is_inputs_in_order(const std::vector<int64_t>& output_shape) const {
    (void)output_shape;
    return false;
  }
};

using OpFactory = Result<std::unique_ptr<OpKernel>> (*)(const KernelInit& init);

struct OpRegistration {
  std::string domain;     // "" = ai.onnx
  std::string op_type;
  int64_t since_version;  // first opset this registration serves
  int64_t last_version;   // last opset it serves (inclusive)
  std::string variant;    // "ref", later "avx2", "int8", ...
  int priority;           // higher wins among registrations that accept the node
  OpFactory factory;
};

class OpRegistry {
 public:
  static OpRegistry& instance();
  void add(OpRegistration r);
  // Registrations for (domain, op) serving `opset`, highest priority first.
  std::vector<const OpRegistration*> find(const std::string& domain, const std::string& op_type,
                                          int64_t opset) const;
  bool knows(const std::string& domain, const std::string& op_type) const;
  std::vector<std::string> op_names() const;  // "domain:op" sorted, for docs and `inspect`

 private:
  std::vector<OpRegistration> regs_;
};

struct OpRegistrar {
  explicit OpRegistrar(OpRegistration r) { OpRegistry::instance().add(std::move(r)); }
};

// Chooses and creates the kernel for a node: the highest-priority registration whose
// factory accepts it.
Result<std::unique_ptr<OpKernel>> create_kernel(const std::string& domain, const KernelInit& init);

template <class K, class... Args>
Result<std::unique_ptr<OpKernel>> make_kernel(Args&&... args) {
  return std::unique_ptr<OpKernel>(new K(std::forward<Args>(args)...));
}

}  // namespace twinrt

// Registers `factory` for ai.onnx `op` from opset `since` onward.
#define TWINRT_REGISTER_OP(op, since, factory)                                       \
  static const ::twinrt::OpRegistrar TWINRT_CONCAT(_twinrt_reg_, __LINE__)(         \
      ::twinrt::OpRegistration{"", op, since, INT64_MAX, "ref", 0, factory})

// Registers for another domain and/or a bounded opset range.
#define TWINRT_REGISTER_OP_EX(domain, op, since, last, variant, priority, factory) \
  static const ::twinrt::OpRegistrar TWINRT_CONCAT(_twinrt_reg_, __LINE__)(       \
      ::twinrt::OpRegistration{domain, op, since, last, variant, priority, factory})
