// What flows between pipeline stages: one tensor, or a list of tensors (one per detected
// item, e.g. a crop per text box) that later stages map over.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::pipeline {

struct PipelineValue {
  bool is_list = false;
  std::vector<Tensor> items;  // exactly one when !is_list

  static PipelineValue single(Tensor t) { return {false, {std::move(t)}}; }
  static PipelineValue list(std::vector<Tensor> items) { return {true, std::move(items)}; }
  const Tensor& tensor() const { return items.front(); }
  // "float32[1,3,640,480]" or "list of 12 (uint8[48,210,3], ...)".
  std::string describe() const;
};

using ValueMap = std::map<std::string, PipelineValue>;
using TensorMap = std::map<std::string, Tensor>;

// A string tensor of shape [n].
Result<Tensor> string_tensor(const std::vector<std::string>& values);

}  // namespace twinrt::pipeline
