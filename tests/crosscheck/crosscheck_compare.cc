#include "crosscheck_compare.h"

#include <cstring>
#include <sstream>

namespace twinrt::crosscheck {
namespace {

// Little-endian bytes of `n` values of T taken from a repeated protobuf field.
template <class T, class Field>
std::string narrowed_bytes(const Field& field) {
  std::string out;
  for (auto v : field) {
    T x = static_cast<T>(v);
    out.append(reinterpret_cast<const char*>(&x), sizeof(T));
  }
  return out;
}

// The dense little-endian bytes a TensorProto stands for, decoded the libprotobuf way.
std::string expected_bytes(const onnx::TensorProto& t) {
  if (t.has_raw_data()) return t.raw_data();
  using P = onnx::TensorProto;
  switch (t.data_type()) {
    case P::FLOAT: case P::COMPLEX64: return narrowed_bytes<float>(t.float_data());
    case P::DOUBLE: case P::COMPLEX128: return narrowed_bytes<double>(t.double_data());
    case P::INT64: return narrowed_bytes<int64_t>(t.int64_data());
    case P::UINT64: return narrowed_bytes<uint64_t>(t.uint64_data());
    case P::UINT32: return narrowed_bytes<uint32_t>(t.uint64_data());
    case P::INT32: return narrowed_bytes<int32_t>(t.int32_data());
    case P::INT16: return narrowed_bytes<int16_t>(t.int32_data());
    case P::INT8: return narrowed_bytes<int8_t>(t.int32_data());
    case P::UINT16: case P::FLOAT16: case P::BFLOAT16: return narrowed_bytes<uint16_t>(t.int32_data());
    case P::UINT8: return narrowed_bytes<uint8_t>(t.int32_data());
    case P::BOOL: {
      std::string out;
      for (int32_t v : t.int32_data()) out.push_back(v != 0 ? 1 : 0);
      return out;
    }
    default: return {};
  }
}

std::string dims_string(const std::vector<int64_t>& dims) { return shape_to_string(dims); }

// Printable forms of the compared values, for difference reports.
template <class T>
std::string printable(const T& v) {
  std::ostringstream s;
  s << v;
  return s.str();
}
std::string printable(const std::string& v) { return "'" + v + "'"; }
template <class T>
std::string printable(const std::vector<T>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + printable(v[i]);
  return s + "]";
}
template <class K, class V>
std::string printable(const std::map<K, V>& m) {
  std::string s = "{";
  for (const auto& [k, v] : m) s += printable(k) + ":" + printable(v) + " ";
  return s + "}";
}

std::string dim_string(const onnx::TensorShapeProto::Dimension& d) {
  if (d.has_dim_value()) return std::to_string(d.dim_value());
  if (d.has_dim_param() && !d.dim_param().empty()) return d.dim_param();
  return "?";
}

std::string elem_name(int32_t code) { return dtype_name(static_cast<DataType>(code)); }

}  // namespace

std::string type_string(const onnx::TypeProto& t) {
  switch (t.value_case()) {
    case onnx::TypeProto::kTensorType:
    case onnx::TypeProto::kSparseTensorType: {
      bool dense = t.value_case() == onnx::TypeProto::kTensorType;
      int32_t elem = dense ? t.tensor_type().elem_type() : t.sparse_tensor_type().elem_type();
      bool has_shape = dense ? t.tensor_type().has_shape() : t.sparse_tensor_type().has_shape();
      const auto& shape = dense ? t.tensor_type().shape() : t.sparse_tensor_type().shape();
      std::string s = std::string(dense ? "tensor(" : "sparse_tensor(") + elem_name(elem) + ")";
      if (!has_shape) return s;
      s += "[";
      for (int i = 0; i < shape.dim_size(); ++i) s += (i ? "," : "") + dim_string(shape.dim(i));
      return s + "]";
    }
    case onnx::TypeProto::kSequenceType:
      return "seq(" + (t.sequence_type().has_elem_type() ? type_string(t.sequence_type().elem_type()) : "unknown") + ")";
    case onnx::TypeProto::kOptionalType:
      return "optional(" + (t.optional_type().has_elem_type() ? type_string(t.optional_type().elem_type()) : "unknown") + ")";
    case onnx::TypeProto::kMapType: {
      const auto& value = t.map_type().value_type();
      int32_t v = value.value_case() == onnx::TypeProto::kTensorType ? value.tensor_type().elem_type() : 0;
      return "map(" + elem_name(t.map_type().key_type()) + "," + elem_name(v) + ")";
    }
    default: return "unknown";
  }
}

template <class A, class B>
void Comparer::same(const std::string& where, const A& want, const B& got) {
  ++checked_;
  if (want == got) return;
  std::ostringstream s;
  s << "libprotobuf has " << printable(want) << ", twinrt has " << printable(got);
  differ(where, s.str());
}

void Comparer::differ(const std::string& where, const std::string& what) { diffs_.push_back(where + ": " + what); }

void Comparer::tensor(const std::string& where, const onnx::TensorProto& want, const Tensor& got) {
  same(where + " dtype", want.data_type(), static_cast<int32_t>(got.dtype()));
  same(where + " dims", dims_string({want.dims().begin(), want.dims().end()}), dims_string(got.shape()));
  if (got.dtype() == DataType::kString) {
    std::vector<std::string> want_strings(want.string_data().begin(), want.string_data().end());
    std::vector<std::string> got_strings(got.data<std::string>(), got.data<std::string>() + got.numel());
    same(where + " strings", want_strings, got_strings);
    return;
  }
  std::string got_bytes(static_cast<const char*>(got.raw()), got.nbytes());
  ++checked_;
  if (expected_bytes(want) != got_bytes) differ(where, "tensor bytes differ");
}

void Comparer::attribute(const std::string& where, const onnx::AttributeProto& want, const ir::Attribute& got) {
  using A = onnx::AttributeProto;
  same(where + " name", want.name(), got.name);
  same(where + " type", static_cast<int>(want.type()), static_cast<int>(got.type));
  same(where + " ref_attr_name", want.ref_attr_name(), got.ref_attr_name);
  switch (want.type()) {
    case A::FLOAT: {
      uint32_t a, b;
      float wf = want.f();
      std::memcpy(&a, &wf, 4);
      std::memcpy(&b, &got.f, 4);
      same(where + " f bits", a, b);
      break;
    }
    case A::INT: same(where + " i", want.i(), got.i); break;
    case A::STRING: same(where + " s", want.s(), got.s); break;
    case A::TENSOR: tensor(where + " t", want.t(), got.t); break;
    case A::GRAPH: if (got.g) graph(where + " g", want.g(), *got.g); else differ(where, "graph missing"); break;
    case A::FLOATS: same(where + " floats", std::vector<float>(want.floats().begin(), want.floats().end()), got.floats); break;
    case A::INTS: same(where + " ints", std::vector<int64_t>(want.ints().begin(), want.ints().end()), got.ints); break;
    case A::STRINGS:
      same(where + " strings", std::vector<std::string>(want.strings().begin(), want.strings().end()), got.strings);
      break;
    case A::TENSORS:
      same(where + " tensor count", static_cast<size_t>(want.tensors_size()), got.tensors.size());
      for (int k = 0; k < want.tensors_size() && static_cast<size_t>(k) < got.tensors.size(); ++k)
        tensor(where + " tensors[" + std::to_string(k) + "]", want.tensors(k), got.tensors[static_cast<size_t>(k)]);
      break;
    case A::GRAPHS:
      same(where + " graph count", static_cast<size_t>(want.graphs_size()), got.graphs.size());
      for (int k = 0; k < want.graphs_size() && static_cast<size_t>(k) < got.graphs.size(); ++k)
        graph(where + " graphs[" + std::to_string(k) + "]", want.graphs(k), *got.graphs[static_cast<size_t>(k)]);
      break;
    case A::TYPE_PROTO:
      same(where + " tp", type_string(want.tp()),
           got.type_protos.empty() ? std::string("missing") : ir::type_to_string(got.type_protos[0]));
      break;
    case A::TYPE_PROTOS: {
      std::vector<std::string> w, g;
      for (const auto& t : want.type_protos()) w.push_back(type_string(t));
      for (const auto& t : got.type_protos) g.push_back(ir::type_to_string(t));
      same(where + " type_protos", w, g);
      break;
    }
    default: break;  // sparse tensors: none in the test data
  }
}

void Comparer::node(const std::string& where, const onnx::NodeProto& want, const ir::Node& got) {
  same(where + " op_type", want.op_type(), got.op_type);
  same(where + " domain", ir::canonical_domain(want.domain()), got.domain);
  same(where + " name", want.name(), got.name);
  same(where + " inputs", std::vector<std::string>(want.input().begin(), want.input().end()), got.inputs);
  same(where + " outputs", std::vector<std::string>(want.output().begin(), want.output().end()), got.outputs);
  same(where + " attribute count", static_cast<size_t>(want.attribute_size()), got.attributes.size());
  for (int k = 0; k < want.attribute_size() && static_cast<size_t>(k) < got.attributes.size(); ++k)
    attribute(where + " attribute '" + want.attribute(k).name() + "'", want.attribute(k),
              got.attributes[static_cast<size_t>(k)]);
}

void Comparer::value_infos(const std::string& where,
                           const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& want,
                           const std::vector<ir::ValueInfo>& got) {
  same(where + " count", static_cast<size_t>(want.size()), got.size());
  for (int k = 0; k < want.size() && static_cast<size_t>(k) < got.size(); ++k) {
    const auto& g = got[static_cast<size_t>(k)];
    same(where + " name", want.Get(k).name(), g.name);
    same(where + " '" + g.name + "' type", want.Get(k).has_type() ? type_string(want.Get(k).type()) : "unknown",
         ir::type_to_string(g.type));
  }
}

void Comparer::graph(const std::string& where, const onnx::GraphProto& want, const ir::Graph& got) {
  same(where + " name", want.name(), got.name);
  same(where + " node count", static_cast<size_t>(want.node_size()), got.nodes.size());
  for (int k = 0; k < want.node_size() && static_cast<size_t>(k) < got.nodes.size(); ++k)
    node(where + " node " + std::to_string(k) + " '" + want.node(k).name() + "'", want.node(k),
         got.nodes[static_cast<size_t>(k)]);
  std::vector<std::string> names;
  for (const auto& t : want.initializer()) names.push_back(t.name());
  same(where + " initializer names", names, got.initializer_order);
  for (const auto& t : want.initializer()) {
    auto it = got.initializers.find(t.name());
    if (it != got.initializers.end()) tensor(where + " initializer '" + t.name() + "'", t, it->second);
  }
  value_infos(where + " inputs", want.input(), got.inputs);
  value_infos(where + " outputs", want.output(), got.outputs);
  value_infos(where + " value_info", want.value_info(), got.value_info);
}

void Comparer::model(const onnx::ModelProto& want, const ir::Model& got) {
  same("ir_version", want.ir_version(), got.ir_version);
  same("producer_name", want.producer_name(), got.producer_name);
  std::map<std::string, int64_t> opsets;
  for (const auto& o : want.opset_import()) opsets[ir::canonical_domain(o.domain())] = o.version();
  same("opset_import", opsets, got.opset_imports);
  same("function count", static_cast<size_t>(want.functions_size()), got.functions.size());
  if (got.graph) graph("graph", want.graph(), *got.graph);
}

void Comparer::sequence(const std::string& where, const onnx::SequenceProto& want, const Value& got) {
  if (!got.is_sequence()) return differ(where, "twinrt did not read a sequence");
  same(where + " length", static_cast<size_t>(want.tensor_values_size()), got.sequence.size());
  for (int k = 0; k < want.tensor_values_size() && static_cast<size_t>(k) < got.sequence.size(); ++k)
    tensor(where + "[" + std::to_string(k) + "]", want.tensor_values(k), got.sequence[static_cast<size_t>(k)]);
}

void Comparer::optional(const std::string& where, const onnx::OptionalProto& want, const Value& got) {
  if (!got.is_optional()) return differ(where, "twinrt did not read an optional");
  bool has = want.has_tensor_value() || want.has_sequence_value() || want.has_optional_value();
  same(where + " has value", has, got.optional != nullptr);
  if (!got.optional) return;
  if (want.has_tensor_value() && got.optional->is_tensor()) tensor(where + " value", want.tensor_value(), got.optional->tensor);
  if (want.has_sequence_value()) sequence(where + " value", want.sequence_value(), *got.optional);
  if (want.has_optional_value()) optional(where + " value", want.optional_value(), *got.optional);
}

}  // namespace twinrt::crosscheck
