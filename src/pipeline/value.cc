#include "pipeline/value.h"

namespace twinrt::pipeline {
namespace {

std::string tensor_type(const Tensor& t) { return std::string(dtype_name(t.dtype())) + shape_to_string(t.shape()); }

}  // namespace

std::string PipelineValue::describe() const {
  if (!is_list) return items.empty() ? "(empty)" : tensor_type(tensor());
  std::string text = "list of " + std::to_string(items.size());
  if (!items.empty()) text += " (" + tensor_type(items.front()) + (items.size() > 1 ? ", ...)" : ")");
  return text;
}

Result<Tensor> string_tensor(const std::vector<std::string>& values) {
  ASSIGN_OR_RETURN(Tensor t, Tensor::create(DataType::kString, {static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) t.data<std::string>()[i] = values[i];
  return t;
}

}  // namespace twinrt::pipeline
