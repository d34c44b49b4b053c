// Hand-encoded ONNX messages for the loader tests, built with the wire writer so each test
// can produce exactly the encoding it wants to exercise (packed or not, odd fields, ...).
#pragma once

#include <string>
#include <vector>

#include "onnx/proto_fields.h"
#include "onnx/wire_writer.h"

namespace twinrt::onnx::testing {

using wire::WireWriter;

// Appends a varint field with an arbitrary (possibly negative, sign-extended) value.
inline void put_int(WireWriter& w, uint32_t field, int64_t v) { w.int64_field(field, v); }

// TensorProto header: dims, data_type and name; the caller adds the data fields.
inline WireWriter tensor_header(const std::vector<int64_t>& dims, int32_t data_type,
                                const std::string& name = "") {
  WireWriter w;
  w.packed_int64s(tensor_proto::kDims, dims);
  put_int(w, tensor_proto::kDataType, data_type);
  if (!name.empty()) w.bytes_field(tensor_proto::kName, name);
  return w;
}

inline std::string raw_tensor(const std::vector<int64_t>& dims, int32_t data_type,
                              const std::string& raw, const std::string& name = "") {
  WireWriter w = tensor_header(dims, data_type, name);
  w.bytes_field(tensor_proto::kRawData, raw);
  return w.take();
}

inline std::string string_entry(const std::string& key, const std::string& value) {
  WireWriter w;
  w.bytes_field(string_string_entry_proto::kKey, key);
  w.bytes_field(string_string_entry_proto::kValue, value);
  return w.take();
}

inline std::string tensor_value_info(const std::string& name, int32_t elem, const std::vector<int64_t>& dims) {
  WireWriter shape;
  for (int64_t d : dims) {
    WireWriter dim;
    dim.int64_field(tensor_shape_proto::dimension::kDimValue, d);
    shape.bytes_field(tensor_shape_proto::kDim, dim.bytes());
  }
  WireWriter tensor_type;
  tensor_type.int64_field(type_proto::tensor::kElemType, elem);
  tensor_type.bytes_field(type_proto::tensor::kShape, shape.bytes());
  WireWriter type;
  type.bytes_field(type_proto::kTensorType, tensor_type.bytes());
  WireWriter vi;
  vi.bytes_field(value_info_proto::kName, name);
  vi.bytes_field(value_info_proto::kType, type.bytes());
  return vi.take();
}

// ModelProto holding one graph: `initializers` (encoded TensorProtos) and `sparse`
// (encoded SparseTensorProtos) sit next to an Identity node from "w" to the graph output
// "y"; opset 13.
inline std::string identity_model(const std::vector<std::string>& initializers,
                                  const std::vector<std::string>& sparse = {}) {
  WireWriter node;
  node.bytes_field(node_proto::kInput, "w");
  node.bytes_field(node_proto::kOutput, "y");
  node.bytes_field(node_proto::kName, "id");
  node.bytes_field(node_proto::kOpType, "Identity");
  WireWriter graph;
  graph.bytes_field(graph_proto::kNode, node.bytes());
  graph.bytes_field(graph_proto::kName, "g");
  for (const auto& t : initializers) graph.bytes_field(graph_proto::kInitializer, t);
  for (const auto& t : sparse) graph.bytes_field(graph_proto::kSparseInitializer, t);
  graph.bytes_field(graph_proto::kOutput, tensor_value_info("y", 1, {}));
  WireWriter opset;
  opset.bytes_field(operator_set_id_proto::kDomain, "");
  opset.int64_field(operator_set_id_proto::kVersion, 13);
  WireWriter model;
  model.int64_field(model_proto::kIrVersion, 8);
  model.bytes_field(model_proto::kOpsetImport, opset.bytes());
  model.bytes_field(model_proto::kGraph, graph.bytes());
  return model.take();
}

template <class T>
std::string bytes_of(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

}  // namespace twinrt::onnx::testing
