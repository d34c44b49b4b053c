// The in-memory model: graphs, nodes, attributes and value types. The IR knows graphs,
// not kernels; src/onnx builds it from a file, src/runtime compiles it into a plan.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "twinrt/tensor.h"

namespace twinrt::ir {

// One dimension: a known size, a named symbol ("batch"), or unknown.
struct Dim {
  int64_t value = -1;  // >= 0 when known
  std::string symbol;  // non-empty for a named dynamic axis
  bool known() const { return value >= 0; }
  static Dim of(int64_t v) { return Dim{v, {}}; }
  static Dim named(std::string s) { return Dim{-1, std::move(s)}; }
  bool operator==(const Dim& o) const { return value == o.value && symbol == o.symbol; }
};
using Shape = std::vector<Dim>;

std::string shape_to_string(const Shape& s);  // "[batch,3,224,224]", "?" for unknown dims
bool shape_is_static(const Shape& s);
std::vector<int64_t> static_dims(const Shape& s);  // requires shape_is_static
Shape shape_of(const std::vector<int64_t>& dims);

// The type of a value: tensor(elem, shape?), sequence(T), optional(T), map (ML ops).
struct TypeInfo {
  enum class Kind { kUnknown, kTensor, kSequence, kOptional, kMap, kSparseTensor };
  Kind kind = Kind::kUnknown;
  DataType elem = DataType::kUndefined;   // tensor element type (map: value type)
  DataType key = DataType::kUndefined;    // map key type
  std::optional<Shape> shape;             // tensor shape when known (rank may be known, dims not)
  std::shared_ptr<TypeInfo> inner;        // sequence / optional element type

  static TypeInfo tensor(DataType e, std::optional<Shape> s = std::nullopt) {
    TypeInfo t; t.kind = Kind::kTensor; t.elem = e; t.shape = std::move(s); return t;
  }
  static TypeInfo sequence_of(TypeInfo e) {
    TypeInfo t; t.kind = Kind::kSequence; t.inner = std::make_shared<TypeInfo>(std::move(e)); return t;
  }
  static TypeInfo optional_of(TypeInfo e) {
    TypeInfo t; t.kind = Kind::kOptional; t.inner = std::make_shared<TypeInfo>(std::move(e)); return t;
  }
  bool is_tensor() const { return kind == Kind::kTensor; }
};
std::string type_to_string(const TypeInfo& t);  // "tensor(float)[1,3]", "seq(tensor(int64))"

struct ValueInfo {
  std::string name;
  TypeInfo type;
  std::string doc;
};

struct Graph;

struct Attribute {
  enum class Type {
    kUndefined = 0, kFloat = 1, kInt = 2, kString = 3, kTensor = 4, kGraph = 5,
    kFloats = 6, kInts = 7, kStrings = 8, kTensors = 9, kGraphs = 10,
    kSparseTensor = 11, kSparseTensors = 12, kTypeProto = 13, kTypeProtos = 14,
  };
  std::string name;
  Type type = Type::kUndefined;
  std::string ref_attr_name;  // inside a function body: refers to the caller's attribute
  float f = 0;
  int64_t i = 0;
  std::string s;
  Tensor t;
  std::shared_ptr<Graph> g;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  std::vector<Tensor> tensors;
  std::vector<std::shared_ptr<Graph>> graphs;
  std::vector<TypeInfo> type_protos;  // tp / type_protos
};
const char* attribute_type_name(Attribute::Type t);

// An elementwise clamp that a graph pass folded into a node's output (Relu, Clip):
// v = v < min ? min : v, then v = v > max ? max : v, each bound only when present.
struct FusedClamp {
  std::optional<float> min, max;
};

// One step of a group of float elementwise nodes that a graph pass merged into one node
// (passes/fuse_elementwise.cc): `op_type` applied to earlier values, where value k is the
// merged node's input k for k < its input count and step k - input count after that.
struct ElementwiseStep {
  std::string op_type;            // Add, Sub, Mul, Div, Clip, Relu, HardSigmoid, ...
  std::vector<int> args;          // value indices, as above
  // Clip: min, max (-inf, inf when absent); HardSigmoid: alpha, beta; LeakyRelu: alpha.
  std::vector<float> params;
};

// The domain of nodes that only graph passes create.
inline constexpr const char* kInternalDomain = "ai.twinrt";

struct Node {
  std::string name;
  std::string op_type;
  std::string domain;  // "" means ai.onnx
  std::vector<std::string> inputs;   // "" marks an omitted optional input
  std::vector<std::string> outputs;  // "" marks an omitted optional output
  std::vector<Attribute> attributes;
  std::string doc;
  // Set by graph passes (src/passes): whether the last input is added to output 0 (a
  // fused Add, with broadcasting), the clamp applied after it, and the names of the model
  // nodes this node now stands for after its own, so reports name real nodes.
  bool fused_residual = false;
  // MatMul: input 2 is a bias of B's n columns, added before the residual (fuse_matmul_bias).
  bool fused_bias = false;
  // MatMul: the Transposes folded into it (fold_transpose_into_matmul): input 0 and input 1
  // are read through these permutations, and output 0 is written through one (empty: none).
  std::vector<int64_t> fused_perm_a, fused_perm_b, fused_perm_y;
  // MatMul: the product is multiplied by this before anything else fused (fuse_matmul_scale).
  float fused_scale = 1.0f;
  std::optional<FusedClamp> fused_clamp;
  std::vector<std::string> fused_from;
  // Elementwise steps run on this node's output 0 (FusedElementwise nodes of
  // kInternalDomain, or a producer such as Conv that a group was folded into). On a
  // producer, value 0 is its own result and values 1.. are its inputs from
  // `elementwise_first_input` on; on FusedElementwise, value k is input k.
  std::vector<ElementwiseStep> elementwise_steps;
  size_t elementwise_first_input = 0;

  const Attribute* attr(const std::string& name) const;
  // "node 'conv1' (Conv)" — used as the prefix of every error about this node.
  std::string describe() const;
};

struct Graph {
  std::string name;
  std::vector<Node> nodes;
  std::vector<ValueInfo> inputs;
  std::vector<ValueInfo> outputs;
  std::vector<ValueInfo> value_info;
  std::map<std::string, Tensor> initializers;  // dense; sparse initializers are densified on load
  std::vector<std::string> initializer_order;  // file order, for stable output
  std::string doc;
};

struct Function {  // a model-local function (FunctionProto)
  std::string name;
  std::string domain;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<std::string> attribute_names;
  std::vector<Attribute> attribute_defaults;  // attribute_proto (IR >= 9)
  std::vector<Node> nodes;
  std::map<std::string, int64_t> opset_imports;
};

struct Model {
  int64_t ir_version = 0;
  std::string producer_name;
  std::string producer_version;
  std::string domain;
  int64_t model_version = 0;
  std::string doc;
  std::map<std::string, int64_t> opset_imports;  // domain ("" = ai.onnx) -> version
  std::vector<std::pair<std::string, std::string>> metadata_props;
  std::shared_ptr<Graph> graph;
  std::vector<Function> functions;

  // Opset version in force for `domain` ("" and "ai.onnx" are the same); 0 if not imported.
  int64_t opset(const std::string& domain) const;
};

// "" and "ai.onnx" name the same domain; returns the canonical form ("").
std::string canonical_domain(const std::string& domain);

}  // namespace twinrt::ir
