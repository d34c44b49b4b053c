#include "cli/external_data_files.h"

#include <algorithm>

#include "onnx/proto_fields.h"
#include "onnx/reader_context.h"
#include "onnx/tensor_reader.h"
#include "onnx/wire.h"

namespace twinrt::cli {
namespace {

using namespace twinrt::onnx;  // field-number namespaces

enum class Message { kModel, kFunction, kGraph, kNode, kAttribute, kSparseTensor, kTensor };

// Which fields of which message hold messages that can (transitively) contain tensors.
struct Edge {
  Message parent;
  uint32_t field;
  Message child;
};
constexpr Edge kEdges[] = {
    {Message::kModel, model_proto::kGraph, Message::kGraph},
    {Message::kModel, model_proto::kFunctions, Message::kFunction},
    {Message::kFunction, function_proto::kNode, Message::kNode},
    {Message::kGraph, graph_proto::kNode, Message::kNode},
    {Message::kGraph, graph_proto::kInitializer, Message::kTensor},
    {Message::kGraph, graph_proto::kSparseInitializer, Message::kSparseTensor},
    {Message::kNode, node_proto::kAttribute, Message::kAttribute},
    {Message::kAttribute, attribute_proto::kT, Message::kTensor},
    {Message::kAttribute, attribute_proto::kTensors, Message::kTensor},
    {Message::kAttribute, attribute_proto::kG, Message::kGraph},
    {Message::kAttribute, attribute_proto::kGraphs, Message::kGraph},
    {Message::kAttribute, attribute_proto::kSparseTensor, Message::kSparseTensor},
    {Message::kAttribute, attribute_proto::kSparseTensors, Message::kSparseTensor},
    {Message::kSparseTensor, sparse_tensor_proto::kValues, Message::kTensor},
    {Message::kSparseTensor, sparse_tensor_proto::kIndices, Message::kTensor},
};

Status walk(const uint8_t* data, size_t size, Message kind, int depth, std::vector<std::string>& out) {
  if (depth > kMaxNestingDepth) return invalid_model("model messages nested too deeply");
  wire::WireReader reader(data, size, "model");
  wire::Field f;
  while (!reader.at_end()) {
    TRY(reader.next(&f));
    if (f.type != wire::WireType::kLen) continue;
    if (kind == Message::kTensor && f.number == tensor_proto::kExternalData) {
      ASSIGN_OR_RETURN(auto entry, read_string_entry(f, "TensorProto.external_data"));
      if (entry.first == "location" && std::find(out.begin(), out.end(), entry.second) == out.end())
        out.push_back(entry.second);
      continue;
    }
    for (const Edge& e : kEdges)
      if (e.parent == kind && e.field == f.number) TRY(walk(f.data, f.size, e.child, depth + 1, out));
  }
  return Status::ok();
}

}  // namespace

Result<std::vector<std::string>> external_data_locations(std::string_view model_bytes) {
  std::vector<std::string> out;
  TRY(walk(reinterpret_cast<const uint8_t*>(model_bytes.data()), model_bytes.size(), Message::kModel, 0, out));
  return out;
}

}  // namespace twinrt::cli
