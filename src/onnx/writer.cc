#include "onnx/writer.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "onnx/loader.h"
#include "onnx/proto_fields.h"
#include "onnx/wire_writer.h"

namespace twinrt::onnx {
namespace {

using wire::WireWriter;

void put_tensor_header(WireWriter& w, const std::vector<int64_t>& dims, DataType dtype,
                       const std::string& name) {
  w.packed_int64s(tensor_proto::kDims, dims);
  w.int64_field(tensor_proto::kDataType, static_cast<int64_t>(dtype));
  if (!name.empty()) w.bytes_field(tensor_proto::kName, name);
}

std::string encode_tensor(const Tensor& t, const std::string& name) {
  WireWriter w;
  put_tensor_header(w, t.shape(), t.dtype(), name);
  if (t.dtype() == DataType::kString) {
    for (int64_t i = 0; i < t.numel(); ++i) w.bytes_field(tensor_proto::kStringData, t.data<std::string>()[i]);
  } else {
    w.bytes_field(tensor_proto::kRawData,
                  std::string_view(static_cast<const char*>(t.raw()), t.nbytes()));
  }
  return w.take();
}

bool is_zero_element(const Tensor& t, int64_t i) {
  if (t.dtype() == DataType::kString) return t.data<std::string>()[i].empty();
  const size_t esize = dtype_size(t.dtype());
  const auto* p = static_cast<const std::byte*>(t.raw()) + static_cast<size_t>(i) * esize;
  for (size_t k = 0; k < esize; ++k)
    if (p[k] != std::byte{0}) return false;
  return true;
}

// A dense tensor as a SparseTensorProto listing its non-zero elements (linear indices).
std::string encode_as_sparse(const Tensor& t) {
  std::vector<int64_t> positions;
  for (int64_t i = 0; i < t.numel(); ++i)
    if (!is_zero_element(t, i)) positions.push_back(i);
  const auto count = static_cast<int64_t>(positions.size());
  WireWriter values;
  put_tensor_header(values, {count}, t.dtype(), "");
  const size_t esize = dtype_size(t.dtype());
  std::string raw;
  for (int64_t i : positions) {
    if (t.dtype() == DataType::kString)
      values.bytes_field(tensor_proto::kStringData, t.data<std::string>()[i]);
    else
      raw.append(static_cast<const char*>(t.raw()) + static_cast<size_t>(i) * esize, esize);
  }
  if (t.dtype() != DataType::kString) values.bytes_field(tensor_proto::kRawData, raw);
  WireWriter indices;
  put_tensor_header(indices, {count}, DataType::kInt64, "");
  indices.bytes_field(tensor_proto::kRawData,
                      std::string_view(reinterpret_cast<const char*>(positions.data()),
                                       positions.size() * sizeof(int64_t)));
  WireWriter w;
  w.bytes_field(sparse_tensor_proto::kValues, values.bytes());
  w.bytes_field(sparse_tensor_proto::kIndices, indices.bytes());
  w.packed_int64s(sparse_tensor_proto::kDims, t.shape());
  return w.take();
}

std::string encode_shape(const ir::Shape& shape) {
  WireWriter w;
  for (const ir::Dim& d : shape) {
    WireWriter dim;
    if (d.known()) dim.int64_field(tensor_shape_proto::dimension::kDimValue, d.value);
    else if (!d.symbol.empty()) dim.bytes_field(tensor_shape_proto::dimension::kDimParam, d.symbol);
    w.bytes_field(tensor_shape_proto::kDim, dim.bytes());
  }
  return w.take();
}

std::string encode_type(const ir::TypeInfo& t) {
  WireWriter w;
  switch (t.kind) {
    case ir::TypeInfo::Kind::kTensor:
    case ir::TypeInfo::Kind::kSparseTensor: {
      WireWriter tensor;
      tensor.int64_field(type_proto::tensor::kElemType, static_cast<int64_t>(t.elem));
      if (t.shape) tensor.bytes_field(type_proto::tensor::kShape, encode_shape(*t.shape));
      w.bytes_field(t.kind == ir::TypeInfo::Kind::kTensor ? type_proto::kTensorType
                                                          : type_proto::kSparseTensorType,
                    tensor.bytes());
      break;
    }
    case ir::TypeInfo::Kind::kSequence:
    case ir::TypeInfo::Kind::kOptional: {
      WireWriter inner;
      if (t.inner) inner.bytes_field(type_proto::sequence::kElemType, encode_type(*t.inner));
      w.bytes_field(t.kind == ir::TypeInfo::Kind::kSequence ? type_proto::kSequenceType
                                                            : type_proto::kOptionalType,
                    inner.bytes());
      break;
    }
    case ir::TypeInfo::Kind::kMap: {
      WireWriter map;
      map.int64_field(type_proto::map::kKeyType, static_cast<int64_t>(t.key));
      map.bytes_field(type_proto::map::kValueType,
                      encode_type(t.inner ? *t.inner : ir::TypeInfo::tensor(t.elem)));
      w.bytes_field(type_proto::kMapType, map.bytes());
      break;
    }
    case ir::TypeInfo::Kind::kUnknown: break;
  }
  return w.take();
}

std::string encode_value_info(const ir::ValueInfo& v) {
  WireWriter w;
  w.bytes_field(value_info_proto::kName, v.name);
  if (v.type.kind != ir::TypeInfo::Kind::kUnknown) w.bytes_field(value_info_proto::kType, encode_type(v.type));
  if (!v.doc.empty()) w.bytes_field(value_info_proto::kDocString, v.doc);
  return w.take();
}

std::string encode_graph(const ir::Graph& g);

std::string encode_attribute(const ir::Attribute& a) {
  using Type = ir::Attribute::Type;
  WireWriter w;
  w.bytes_field(attribute_proto::kName, a.name);
  if (!a.ref_attr_name.empty()) w.bytes_field(attribute_proto::kRefAttrName, a.ref_attr_name);
  w.int64_field(attribute_proto::kType, static_cast<int64_t>(a.type));
  if (!a.ref_attr_name.empty()) return w.take();  // a reference carries no value
  switch (a.type) {
    case Type::kFloat: w.float_field(attribute_proto::kF, a.f); break;
    case Type::kInt: w.int64_field(attribute_proto::kI, a.i); break;
    case Type::kString: w.bytes_field(attribute_proto::kS, a.s); break;
    case Type::kTensor: w.bytes_field(attribute_proto::kT, encode_tensor(a.t, "")); break;
    case Type::kSparseTensor: w.bytes_field(attribute_proto::kSparseTensor, encode_as_sparse(a.t)); break;
    case Type::kGraph:
      if (a.g) w.bytes_field(attribute_proto::kG, encode_graph(*a.g));
      break;
    case Type::kFloats: w.packed_floats(attribute_proto::kFloats, a.floats); break;
    case Type::kInts: w.packed_int64s(attribute_proto::kInts, a.ints); break;
    case Type::kStrings:
      for (const auto& s : a.strings) w.bytes_field(attribute_proto::kStrings, s);
      break;
    case Type::kTensors:
      for (const auto& t : a.tensors) w.bytes_field(attribute_proto::kTensors, encode_tensor(t, ""));
      break;
    case Type::kSparseTensors:
      for (const auto& t : a.tensors) w.bytes_field(attribute_proto::kSparseTensors, encode_as_sparse(t));
      break;
    case Type::kGraphs:
      for (const auto& g : a.graphs)
        if (g) w.bytes_field(attribute_proto::kGraphs, encode_graph(*g));
      break;
    case Type::kTypeProto:
      if (!a.type_protos.empty()) w.bytes_field(attribute_proto::kTp, encode_type(a.type_protos.front()));
      break;
    case Type::kTypeProtos:
      for (const auto& t : a.type_protos) w.bytes_field(attribute_proto::kTypeProtos, encode_type(t));
      break;
    case Type::kUndefined: break;
  }
  return w.take();
}

std::string encode_node(const ir::Node& n) {
  WireWriter w;
  for (const auto& s : n.inputs) w.bytes_field(node_proto::kInput, s);
  for (const auto& s : n.outputs) w.bytes_field(node_proto::kOutput, s);
  if (!n.name.empty()) w.bytes_field(node_proto::kName, n.name);
  w.bytes_field(node_proto::kOpType, n.op_type);
  if (!n.domain.empty()) w.bytes_field(node_proto::kDomain, n.domain);
  for (const auto& a : n.attributes) w.bytes_field(node_proto::kAttribute, encode_attribute(a));
  if (!n.doc.empty()) w.bytes_field(node_proto::kDocString, n.doc);
  return w.take();
}

std::string encode_graph(const ir::Graph& g) {
  WireWriter w;
  for (const auto& n : g.nodes) w.bytes_field(graph_proto::kNode, encode_node(n));
  if (!g.name.empty()) w.bytes_field(graph_proto::kName, g.name);
  for (const auto& name : g.initializer_order) {
    auto it = g.initializers.find(name);
    if (it != g.initializers.end()) w.bytes_field(graph_proto::kInitializer, encode_tensor(it->second, name));
  }
  if (!g.doc.empty()) w.bytes_field(graph_proto::kDocString, g.doc);
  for (const auto& v : g.inputs) w.bytes_field(graph_proto::kInput, encode_value_info(v));
  for (const auto& v : g.outputs) w.bytes_field(graph_proto::kOutput, encode_value_info(v));
  for (const auto& v : g.value_info) w.bytes_field(graph_proto::kValueInfo, encode_value_info(v));
  return w.take();
}

std::string encode_opset(const std::string& domain, int64_t version) {
  WireWriter w;
  w.bytes_field(operator_set_id_proto::kDomain, domain);
  w.int64_field(operator_set_id_proto::kVersion, version);
  return w.take();
}

std::string encode_function(const ir::Function& f) {
  WireWriter w;
  w.bytes_field(function_proto::kName, f.name);
  for (const auto& s : f.inputs) w.bytes_field(function_proto::kInput, s);
  for (const auto& s : f.outputs) w.bytes_field(function_proto::kOutput, s);
  for (const auto& s : f.attribute_names) w.bytes_field(function_proto::kAttribute, s);
  for (const auto& n : f.nodes) w.bytes_field(function_proto::kNode, encode_node(n));
  for (const auto& [domain, version] : f.opset_imports)
    w.bytes_field(function_proto::kOpsetImport, encode_opset(domain, version));
  w.bytes_field(function_proto::kDomain, f.domain);
  for (const auto& a : f.attribute_defaults) w.bytes_field(function_proto::kAttributeProto, encode_attribute(a));
  return w.take();
}

// Undefined tensors cannot be written; find them before writing anything.
Status check_tensors(const ir::Graph& g) {
  for (const auto& [name, t] : g.initializers)
    if (!t.defined()) return invalid_argument("initializer '" + name + "' has no data type");
  for (const auto& n : g.nodes)
    for (const auto& a : n.attributes) {
      if ((a.type == ir::Attribute::Type::kTensor || a.type == ir::Attribute::Type::kSparseTensor) &&
          a.ref_attr_name.empty() && !a.t.defined())
        return invalid_argument(n.describe() + ": attribute '" + a.name + "' holds no tensor");
      if (a.g) TRY(check_tensors(*a.g));
      for (const auto& sub : a.graphs)
        if (sub) TRY(check_tensors(*sub));
    }
  return Status::ok();
}

}  // namespace

std::string serialize_tensor(const Tensor& t, const std::string& name) { return encode_tensor(t, name); }

Result<std::string> write_model(const ir::Model& m) {
  if (!m.graph) return invalid_argument("the model has no graph");
  TRY(check_tensors(*m.graph));
  WireWriter w;
  w.int64_field(model_proto::kIrVersion, m.ir_version);
  if (!m.producer_name.empty()) w.bytes_field(model_proto::kProducerName, m.producer_name);
  if (!m.producer_version.empty()) w.bytes_field(model_proto::kProducerVersion, m.producer_version);
  if (!m.domain.empty()) w.bytes_field(model_proto::kDomain, m.domain);
  if (m.model_version) w.int64_field(model_proto::kModelVersion, m.model_version);
  if (!m.doc.empty()) w.bytes_field(model_proto::kDocString, m.doc);
  w.bytes_field(model_proto::kGraph, encode_graph(*m.graph));
  for (const auto& [domain, version] : m.opset_imports)
    w.bytes_field(model_proto::kOpsetImport, encode_opset(domain, version));
  for (const auto& [key, value] : m.metadata_props) {
    WireWriter entry;
    entry.bytes_field(string_string_entry_proto::kKey, key);
    entry.bytes_field(string_string_entry_proto::kValue, value);
    w.bytes_field(model_proto::kMetadataProps, entry.bytes());
  }
  for (const auto& f : m.functions) w.bytes_field(model_proto::kFunctions, encode_function(f));
  return w.take();
}

Status write_model_file(const ir::Model& model, const std::string& path) {
  ASSIGN_OR_RETURN(std::string bytes, write_model(model));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return io_error("cannot open '" + path + "' for writing: " + std::strerror(errno));
  // The reason matters: a full disk (localize writes a model per chunk) looked like any other failure.
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.flush();
  if (!out) return io_error("cannot write '" + path + "': " + std::strerror(errno));
  return Status::ok();
}

}  // namespace twinrt::onnx
