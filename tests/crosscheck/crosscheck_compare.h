// Compares what libprotobuf parsed (onnx::ModelProto, TensorProto, ...) with what twinrt's
// loader produced, collecting every difference with the path to it.
#pragma once

#include <onnx/onnx-data_pb.h>

#include <string>
#include <vector>

#include "ir/ir.h"
#include "twinrt/tensor.h"

namespace twinrt::crosscheck {

class Comparer {
 public:
  void model(const onnx::ModelProto& want, const ir::Model& got);
  void tensor(const std::string& where, const onnx::TensorProto& want, const Tensor& got);
  void sequence(const std::string& where, const onnx::SequenceProto& want, const Value& got);
  void optional(const std::string& where, const onnx::OptionalProto& want, const Value& got);

  const std::vector<std::string>& differences() const { return diffs_; }
  size_t checked_values() const { return checked_; }

 private:
  void graph(const std::string& where, const onnx::GraphProto& want, const ir::Graph& got);
  void node(const std::string& where, const onnx::NodeProto& want, const ir::Node& got);
  void attribute(const std::string& where, const onnx::AttributeProto& want, const ir::Attribute& got);
  void value_infos(const std::string& where, const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& want,
                   const std::vector<ir::ValueInfo>& got);
  template <class A, class B>
  void same(const std::string& where, const A& want, const B& got);
  void differ(const std::string& where, const std::string& what);

  std::vector<std::string> diffs_;
  size_t checked_ = 0;
};

// twinrt's type_to_string format, computed from a TypeProto.
std::string type_string(const onnx::TypeProto& t);

}  // namespace twinrt::crosscheck
