// Fuzzes whole sessions: the bytes choose a small graph (1-4 nodes of the ops twinrt
// registers, with opset, attributes, input dtypes and shapes taken from each op's ONNX schema),
// which is serialized, loaded through Session::load_bytes in a chosen mode and run on small
// random feeds. Graphs are mostly valid, so the bytes reach shape inference and the kernels;
// sometimes a dtype or an attribute is wrong on purpose. Errors are fine; crashes, sanitizer
// reports, hangs and big allocations are findings.
#include <algorithm>

#include "fuzz_support.h"
#include "ops/op.h"
#include "op_schemas.h"

namespace twinrt::fuzz {
namespace {

constexpr int kMinOpset = 7;
constexpr int kMaxOpset = 18;
constexpr const char* kTrainingDomain = "ai.onnx.preview.training";

// A schema for registered ops ONNX 1.12 does not describe (FusedElementwise, which only graph
// passes should make, and ops new in opset 18): 1-3 inputs and 1-2 outputs of any tensor type.
const OpSchema* generic_schema(const std::string& domain, const std::string& op_type) {
  static std::vector<std::unique_ptr<OpSchema>> made;
  auto s = std::make_unique<OpSchema>();
  s->domain = domain;
  s->op_type = op_type;
  s->constraints.emplace_back();  // empty: any tensor type
  FormalValue v;
  v.option = FormalValue::Option::kVariadic;
  v.constraint = 0;
  s->inputs.push_back(v);
  s->outputs.push_back(v);
  made.push_back(std::move(s));
  return made.back().get();
}

// The ops twinrt serves at each ai.onnx opset, with their schemas.
const std::vector<const OpSchema*>& ops_at(int opset) {
  static const auto table = [] {
    std::vector<std::vector<const OpSchema*>> t(kMaxOpset + 1);
    const OpRegistry& registry = OpRegistry::instance();
    for (const std::string& name : registry.op_names()) {
      size_t colon = name.rfind(':');
      std::string domain = colon == std::string::npos ? "" : name.substr(0, colon);
      std::string op = colon == std::string::npos ? name : name.substr(colon + 1);
      const OpSchema* generic = nullptr;
      for (int opset = kMinOpset; opset <= kMaxOpset; ++opset) {
        int version = domain.empty() ? opset : 1;  // other domains are imported at version 1
        if (registry.find(domain, op, version).empty()) continue;
        const OpSchema* s = find_schema(domain, op, version);
        if (!s && (domain == ir::kInternalDomain || !find_schema(domain, op, kMaxOpset)))
          s = generic ? generic : (generic = generic_schema(domain, op));
        if (s) t[opset].push_back(s);
      }
    }
    return t;
  }();
  return table[opset];
}

bool same_type(const ir::TypeInfo& a, const ir::TypeInfo& b) {
  if (a.kind != b.kind) return false;
  if (a.kind == ir::TypeInfo::Kind::kTensor) return a.elem == b.elem;
  if (a.inner && b.inner) return same_type(*a.inner, *b.inner);
  return !a.inner && !b.inner;
}

const char* const kStrings[] = {
    "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID", "constant", "reflect", "edge", "wrap", "nearest", "linear",
    "cubic", "bilinear", "bicubic", "half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel",
    "tf_crop_and_resize", "round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "forward", "reverse",
    "bidirectional", "Relu", "Tanh", "Sigmoid", "Affine", "LeakyRelu", "ThresholdedRelu", "ScaledTanh",
    "HardSigmoid", "Elu", "Softsign", "Softplus", "DCR", "CRD", "avg", "max", "mean", "sum", "none", "tanh",
    "zeros", "border", "reflection", "LOWER", "UPPER", "NONE", "TF", "IDF", "TFIDF", "ij,jk->ik", "i,i",
    "bij,bjk->bik", "ii->i", "...i,...i->...", "ab->ba", "", "x"};

// Builds one graph from the bytes and remembers how to feed it.
class GraphMaker {
 public:
  explicit GraphMaker(FuzzedDataProvider& in) : in_(in) {}

  ir::Model make() {
    int opset = in_.ConsumeIntegralInRange(kMinOpset, kMaxOpset);
    base_dims_ = random_dims(in_, 4, one_in(8) ? 0 : 1);
    int nodes = in_.ConsumeIntegralInRange(1, 4);
    for (int i = 0; i < nodes; ++i) add_node(opset);
    ir::Model m = make_model(std::move(graph_), opset);
    m.opset_imports[kTrainingDomain] = 1;
    m.opset_imports[ir::kInternalDomain] = 1;
    return m;
  }

  std::map<std::string, Value> feeds() {
    std::map<std::string, Value> out;
    for (const auto& [name, type, dims] : inputs_) out[name] = value_of(type, dims);
    return out;
  }

 private:
  struct Input {
    std::string name;
    ir::TypeInfo type;
    std::vector<int64_t> dims;
  };

  bool one_in(int n) { return fuzz::one_in(in_, n); }
  std::string fresh(const char* prefix) { return prefix + std::to_string(next_name_++); }

  ir::TypeInfo type_of(const FormalValue& f, const std::vector<ir::TypeInfo>& bound) {
    if (one_in(24)) return ir::TypeInfo::tensor(random_dtype(in_));  // deliberately wrong
    if (f.constraint >= 0) return bound[static_cast<size_t>(f.constraint)];
    if (f.types.empty()) return ir::TypeInfo::tensor(random_dtype(in_));
    return f.types[in_.ConsumeIntegralInRange<size_t>(0, f.types.size() - 1)];
  }

  // Mostly shapes that broadcast with each other: the graph's base shape, a suffix of it or
  // it with some dims 1; sometimes a short 1-D tensor (shapes, axes, pads) or anything.
  std::vector<int64_t> pick_dims() {
    std::vector<int64_t> dims = base_dims_;
    switch (in_.ConsumeIntegralInRange(0, 5)) {
      case 2: dims.erase(dims.begin(), dims.begin() + in_.ConsumeIntegralInRange<size_t>(0, dims.size())); break;
      case 3: for (int64_t& d : dims) if (in_.ConsumeBool()) d = 1; break;
      case 4: return {in_.ConsumeIntegralInRange<int64_t>(0, 4)};
      case 5: return random_dims(in_, 4);
      default: break;
    }
    return dims;
  }

  Value value_of(const ir::TypeInfo& type, const std::vector<int64_t>& dims) {
    switch (type.kind) {
      case ir::TypeInfo::Kind::kSequence: {
        std::vector<Tensor> items(in_.ConsumeIntegralInRange(0, 3));
        for (Tensor& t : items) t = random_tensor(in_, type.inner->elem, dims);
        return Value::of_sequence(std::move(items), type.inner->elem);
      }
      case ir::TypeInfo::Kind::kOptional:
        if (in_.ConsumeBool()) return Value::of_optional(nullptr);
        return Value::of_optional(std::make_shared<Value>(value_of(*type.inner, dims)));
      default: return Value::of(random_tensor(in_, type.elem, dims));
    }
  }

  // A new graph input of `type`, declared with its exact dims, symbols or unknown dims.
  std::string add_input(const ir::TypeInfo& type) {
    Input input{fresh("in"), type, pick_dims()};
    ir::TypeInfo declared = type;
    const ir::TypeInfo* tensor = &type;
    while (tensor->inner) tensor = tensor->inner.get();
    if (tensor->kind == ir::TypeInfo::Kind::kTensor) {
      std::vector<int64_t> dims = input.dims;
      std::vector<std::string> symbols(dims.size());
      switch (in_.ConsumeIntegralInRange(0, 3)) {
        case 1: for (size_t i = 0; i < dims.size(); ++i) symbols[i] = "s" + std::to_string(dims[i]); break;
        case 2: std::fill(dims.begin(), dims.end(), -1); break;
        default: break;
      }
      ir::TypeInfo t = tensor_type(tensor->elem, dims, symbols);
      if (in_.ConsumeIntegralInRange(0, 3) == 3) t.shape.reset();  // rank unknown
      if (type.kind == ir::TypeInfo::Kind::kTensor) declared = t;
    }
    graph_.inputs.push_back(value_info(input.name, declared));
    inputs_.push_back(input);
    return input.name;
  }

  std::string add_initializer(DataType dtype) {
    std::string name = fresh("w");
    graph_.initializers[name] = random_tensor(in_, dtype, pick_dims());
    graph_.initializer_order.push_back(name);
    return name;
  }

  std::string trip_count() {
    std::string name = fresh("m");
    graph_.initializers[name] = *Tensor::from_vector<int64_t>({}, {in_.ConsumeIntegralInRange<int64_t>(0, 3)});
    graph_.initializer_order.push_back(name);
    return name;
  }

  // An earlier value of the same type, a new initializer or a new graph input.
  std::string input_for(const ir::TypeInfo& type) {
    int how = in_.ConsumeIntegralInRange(0, 2);
    if (how == 0) {
      for (const auto& [name, t] : values_)
        if (same_type(t, type) && in_.ConsumeBool()) return name;
    }
    if (how == 1 && type.kind == ir::TypeInfo::Kind::kTensor) return add_initializer(type.elem);
    return add_input(type);
  }

  std::string random_string(const AttributeSchema& a) {
    if (!a.default_string.empty() && one_in(3)) return a.default_string;
    if (one_in(16)) return in_.ConsumeRandomLengthString(12);
    return in_.PickValueInArray(kStrings);
  }

  // A body for If/Loop/Scan/SequenceMap: `num_inputs` inputs of any type (Loop's first two are
  // its iteration count and condition), each output an Identity of a body input or of an
  // outer value (an outer-scope reference).
  ir::Graph body(size_t num_inputs, size_t num_outputs, bool loop) {
    ir::Graph g;
    g.name = fresh("body");
    std::vector<std::string> sources;
    for (size_t i = 0; i < num_inputs; ++i) {
      ir::TypeInfo t;
      if (loop && i < 2) t = tensor_type(i == 0 ? DataType::kInt64 : DataType::kBool, {});
      g.inputs.push_back(value_info(fresh("b"), t));
      sources.push_back(g.inputs.back().name);
    }
    for (const auto& v : values_) sources.push_back(v.first);
    for (const auto& i : inputs_) sources.push_back(i.name);
    for (size_t o = 0; o < num_outputs; ++o) {
      std::string out = fresh("bo");
      if (sources.empty()) {
        ir::Attribute value;
        value.name = "value";
        value.type = ir::Attribute::Type::kTensor;
        value.t = random_tensor(in_, DataType::kFloat, pick_dims());
        g.nodes.push_back(make_node("Constant", {}, {out}, {value}));
      } else {
        std::string from = sources[in_.ConsumeIntegralInRange<size_t>(0, sources.size() - 1)];
        g.nodes.push_back(make_node(one_in(4) ? "Neg" : "Identity", {from}, {out}));
      }
      g.outputs.push_back(value_info(out, ir::TypeInfo{}));
    }
    return g;
  }

  std::optional<ir::Attribute> attribute(const AttributeSchema& schema, const ir::Node& node) {
    using Type = ir::Attribute::Type;
    static const Type kAny[] = {Type::kInt, Type::kFloat, Type::kString, Type::kInts, Type::kFloats, Type::kTensor};
    ir::Attribute a;
    a.name = schema.name;
    a.type = one_in(32) ? in_.PickValueInArray(kAny) : schema.type;
    switch (a.type) {
      case Type::kInt:
        // Type codes for Cast's `to`, EyeLike's `dtype`, ...; small numbers otherwise.
        a.i = schema.name == "to" || schema.name.find("dtype") != std::string::npos
                  ? in_.ConsumeIntegralInRange(0, 17) : random_int(in_);
        break;
      case Type::kFloat: a.f = static_cast<float>(random_real(in_)); break;
      case Type::kString: a.s = random_string(schema); break;
      case Type::kInts: a.ints.resize(in_.ConsumeIntegralInRange(0, 8)); for (auto& v : a.ints) v = random_int(in_); break;
      case Type::kFloats: a.floats.resize(in_.ConsumeIntegralInRange(0, 4)); for (auto& v : a.floats) v = static_cast<float>(random_real(in_)); break;
      case Type::kStrings: a.strings.resize(in_.ConsumeIntegralInRange(0, 3)); for (auto& v : a.strings) v = random_string(schema); break;
      case Type::kTensor: a.t = random_tensor(in_, one_in(2) ? DataType::kFloat : random_dtype(in_), random_dims(in_, 1)); break;
      case Type::kTypeProto: a.type_protos.push_back(ir::TypeInfo::tensor(random_dtype(in_))); break;
      case Type::kGraph:
        // If's branches take no inputs; Loop's body also returns its condition.
        if (node.op_type == "If") a.g = std::make_shared<ir::Graph>(body(0, node.outputs.size(), false));
        else if (node.op_type == "Loop") a.g = std::make_shared<ir::Graph>(body(node.inputs.size(), node.outputs.size() + 1, true));
        else a.g = std::make_shared<ir::Graph>(body(node.inputs.size(), node.outputs.size(), false));
        break;
      default: return std::nullopt;  // sparse tensors, lists of graphs: no op here takes them
    }
    return a;
  }

  void add_node(int opset) {
    const auto& ops = ops_at(opset);
    if (ops.empty()) return;
    const OpSchema& s = *ops[in_.ConsumeIntegralInRange<size_t>(0, ops.size() - 1)];
    std::vector<ir::TypeInfo> bound;
    for (const auto& allowed : s.constraints)
      bound.push_back(allowed.empty() ? ir::TypeInfo::tensor(random_dtype(in_))
                                      : allowed[in_.ConsumeIntegralInRange<size_t>(0, allowed.size() - 1)]);
    ir::Node node = make_node(s.op_type, {}, {}, {}, s.domain);
    node.name = fresh("n");
    for (const FormalValue& f : s.inputs) {
      int count = 1;
      if (f.option == FormalValue::Option::kOptional) count = in_.ConsumeBool();
      if (f.option == FormalValue::Option::kVariadic) count = in_.ConsumeIntegralInRange(f.min_arity, f.min_arity + 2);
      if (count == 0) node.inputs.push_back("");
      for (int i = 0; i < count; ++i) node.inputs.push_back(input_for(type_of(f, bound)));
    }
    // A Loop without a trip count runs until its condition turns false, which a generated body
    // rarely does: valid ONNX, slow by design (docs/security.md), so bound it here.
    if (s.op_type == "Loop" && !node.inputs.empty()) node.inputs[0] = trip_count();
    std::vector<ir::TypeInfo> output_types;
    for (const FormalValue& f : s.outputs) {
      int count = 1;
      if (f.option == FormalValue::Option::kOptional) count = in_.ConsumeBool();
      if (f.option == FormalValue::Option::kVariadic) count = in_.ConsumeIntegralInRange(std::max(f.min_arity, 1), 3);
      if (count == 0) node.outputs.push_back("");
      for (int i = 0; i < count; ++i) {
        node.outputs.push_back(fresh("v"));
        output_types.push_back(f.constraint >= 0 ? bound[static_cast<size_t>(f.constraint)]
                               : f.types.empty() ? ir::TypeInfo{} : f.types[0]);
      }
    }
    while (!node.inputs.empty() && node.inputs.back().empty()) node.inputs.pop_back();
    while (!node.outputs.empty() && node.outputs.back().empty()) node.outputs.pop_back();
    for (const AttributeSchema& a : s.attributes)
      if (a.required || one_in(3))
        if (auto attr = attribute(a, node)) node.attributes.push_back(std::move(*attr));
    if (one_in(64)) node.attributes.push_back(int_attribute("not_an_attribute", 1));
    size_t k = 0;
    for (const std::string& out : node.outputs) {
      if (out.empty()) continue;
      values_.emplace_back(out, output_types[k++]);
      graph_.outputs.push_back(value_info(out, ir::TypeInfo{}));
    }
    graph_.nodes.push_back(std::move(node));
  }

  FuzzedDataProvider& in_;
  ir::Graph graph_;
  std::vector<int64_t> base_dims_;
  std::vector<std::pair<std::string, ir::TypeInfo>> values_;  // node outputs so far
  std::vector<Input> inputs_;
  int next_name_ = 0;
};

}  // namespace
}  // namespace twinrt::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  twinrt::fuzz::use_small_limits();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace twinrt;
  FuzzedDataProvider in(data, size);
  fuzz::GraphMaker maker(in);
  ir::Model model = maker.make();
  SessionOptions options;
  options.mode = in.PickValueInArray({Mode::kDefault, Mode::kReference, Mode::kExact});
  options.optimization = in.PickValueInArray({OptimizationLevel::kAll, OptimizationLevel::kBasic,
                                              OptimizationLevel::kNone});
  options.threads = fuzz::one_in(in, 8) ? 2 : 1;
  auto session = fuzz::load_session(model, options);
  if (!session) return 0;
  (void)(*session)->run(maker.feeds());
  return 0;
}
