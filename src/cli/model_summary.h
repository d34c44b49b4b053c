// What `twinrt inspect` reports about a model file, gathered once and rendered as text
// (inspect.cc) or as a Markdown model card (model_card.cc).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::cli {

struct IoSummary {
  std::string name;
  std::string type;  // "tensor(float32)[batch,3,224,224]"
  std::vector<std::pair<size_t, std::string>> dynamic_axes;  // axis -> symbol ("?" if unnamed)
};

struct ParamGroup {  // parameter tensors of one dtype
  DataType dtype = DataType::kUndefined;
  int64_t tensors = 0;
  int64_t elements = 0;
  int64_t bytes = 0;  // string tensors: total characters
};

struct UnsupportedOp {
  std::string op;  // "domain:op"
  int64_t opset = 0;
  int64_t nodes = 0;
  bool other_opsets_supported = false;
};

struct ExternalFile {
  std::string location;  // as the model names it
  uint64_t size = 0;
  std::string sha256;
};

struct ModelSummary {
  std::string path;
  uint64_t file_size = 0;
  std::string sha256;
  int64_t ir_version = 0;
  std::string producer;  // "pytorch 2.1.0"
  std::string domain;
  int64_t model_version = 0;
  std::string doc;
  std::map<std::string, int64_t> opsets;  // "ai.onnx" for the default domain
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<IoSummary> inputs, outputs;
  std::map<std::string, int64_t> op_histogram;  // "domain:op" ("Conv" for ai.onnx) -> nodes
  int64_t node_count = 0;   // including nodes of nested graphs
  std::vector<ParamGroup> params;           // initializers, by dtype
  std::vector<ParamGroup> constant_params;  // values of Constant nodes, by dtype
  std::vector<UnsupportedOp> unsupported;
  std::vector<ExternalFile> external_files;
};

Result<ModelSummary> summarize_model(const std::string& path);

std::string display_domain(const std::string& domain);  // "" -> "ai.onnx"
std::string format_bytes(uint64_t bytes);               // "1.5 MiB"
int64_t total_elements(const std::vector<ParamGroup>& groups);
int64_t total_bytes(const std::vector<ParamGroup>& groups);

}  // namespace twinrt::cli
