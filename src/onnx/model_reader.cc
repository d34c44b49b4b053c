// ModelProto and FunctionProto → ir::Model, and the loader's model entry points.
#include <filesystem>

#include "onnx/graph_reader.h"
#include "onnx/loader.h"
#include "onnx/file_bytes.h"
#include "onnx/proto_fields.h"
#include "onnx/tensor_reader.h"
#include "onnx/wire.h"

namespace twinrt::onnx {
namespace {

using wire::Field;
using wire::WireType;

Status read_opset_import(const Field& f, const char* name, std::map<std::string, int64_t>* out) {
  TRY(wire::expect_type(f, WireType::kLen, name));
  wire::WireReader r(f.data, f.size, "OperatorSetIdProto");
  std::string domain;
  int64_t version = 0;
  Field e;
  while (!r.at_end()) {
    TRY(r.next(&e));
    if (e.number == operator_set_id_proto::kDomain) {
      ASSIGN_OR_RETURN(domain, wire::as_string(e, "OperatorSetIdProto.domain"));
    } else if (e.number == operator_set_id_proto::kVersion) {
      ASSIGN_OR_RETURN(version, wire::as_int64(e, "OperatorSetIdProto.version"));
    }
  }
  if (version < 0) return invalid_model(std::string(name) + ": negative opset version for domain '" + domain + "'");
  (*out)[ir::canonical_domain(domain)] = version;
  return Status::ok();
}

Status read_function_field(const Field& f, ReadContext& ctx, ir::Function* fn) {
  switch (f.number) {
    case function_proto::kName: {
      ASSIGN_OR_RETURN(fn->name, wire::as_string(f, "FunctionProto.name"));
      return Status::ok();
    }
    case function_proto::kDomain: {
      ASSIGN_OR_RETURN(fn->domain, wire::as_string(f, "FunctionProto.domain"));
      fn->domain = ir::canonical_domain(fn->domain);
      return Status::ok();
    }
    case function_proto::kInput:
    case function_proto::kOutput:
    case function_proto::kAttribute: {
      const char* field = f.number == function_proto::kInput    ? "FunctionProto.input"
                          : f.number == function_proto::kOutput ? "FunctionProto.output"
                                                                : "FunctionProto.attribute";
      ASSIGN_OR_RETURN(std::string s, wire::as_string(f, field));
      auto& list = f.number == function_proto::kInput    ? fn->inputs
                   : f.number == function_proto::kOutput ? fn->outputs
                                                         : fn->attribute_names;
      list.push_back(std::move(s));
      return Status::ok();
    }
    case function_proto::kAttributeProto: {
      TRY(wire::expect_type(f, WireType::kLen, "FunctionProto.attribute_proto"));
      ASSIGN_OR_RETURN(ir::Attribute a, read_attribute(f.data, f.size, ctx));
      fn->attribute_defaults.push_back(std::move(a));
      return Status::ok();
    }
    case function_proto::kNode: {
      TRY(wire::expect_type(f, WireType::kLen, "FunctionProto.node"));
      ASSIGN_OR_RETURN(ir::Node n, read_node(f.data, f.size, ctx));
      fn->nodes.push_back(std::move(n));
      return Status::ok();
    }
    case function_proto::kOpsetImport:
      return read_opset_import(f, "FunctionProto.opset_import", &fn->opset_imports);
    default: return Status::ok();  // doc_string
  }
}

Result<ir::Function> read_function(const Field& f, ReadContext& ctx) {
  TRY(wire::expect_type(f, WireType::kLen, "ModelProto.functions"));
  wire::WireReader r(f.data, f.size, "FunctionProto");
  ir::Function fn;
  Field e;
  while (!r.at_end()) {
    Status st = r.next(&e);
    if (st) st = read_function_field(e, ctx, &fn);
    if (!st) return st.with_context("function '" + fn.name + "': ");
  }
  return fn;
}

Status read_model_field(const Field& f, ReadContext& ctx, ir::Model* m) {
  switch (f.number) {
    case model_proto::kIrVersion: {
      ASSIGN_OR_RETURN(m->ir_version, wire::as_int64(f, "ModelProto.ir_version"));
      return Status::ok();
    }
    case model_proto::kProducerName: {
      ASSIGN_OR_RETURN(m->producer_name, wire::as_string(f, "ModelProto.producer_name"));
      return Status::ok();
    }
    case model_proto::kProducerVersion: {
      ASSIGN_OR_RETURN(m->producer_version, wire::as_string(f, "ModelProto.producer_version"));
      return Status::ok();
    }
    case model_proto::kDomain: {
      ASSIGN_OR_RETURN(m->domain, wire::as_string(f, "ModelProto.domain"));
      return Status::ok();
    }
    case model_proto::kModelVersion: {
      ASSIGN_OR_RETURN(m->model_version, wire::as_int64(f, "ModelProto.model_version"));
      return Status::ok();
    }
    case model_proto::kDocString: {
      ASSIGN_OR_RETURN(m->doc, wire::as_string(f, "ModelProto.doc_string"));
      return Status::ok();
    }
    case model_proto::kGraph: {
      TRY(wire::expect_type(f, WireType::kLen, "ModelProto.graph"));
      // Protobuf would merge two graph fields into one; no tool writes that on purpose,
      // and any choice (first, last, merged) could run a graph nobody meant.
      if (m->graph)
        return invalid_model("ModelProto.graph: the model has two graph fields (protobuf would merge them); "
                             "refusing the ambiguous file");
      ASSIGN_OR_RETURN(m->graph, read_graph(f.data, f.size, ctx));
      return Status::ok();
    }
    case model_proto::kOpsetImport:
      return read_opset_import(f, "ModelProto.opset_import", &m->opset_imports);
    case model_proto::kMetadataProps: {
      ASSIGN_OR_RETURN(auto entry, read_string_entry(f, "ModelProto.metadata_props"));
      m->metadata_props.push_back(std::move(entry));
      return Status::ok();
    }
    case model_proto::kFunctions: {
      ASSIGN_OR_RETURN(ir::Function fn, read_function(f, ctx));
      m->functions.push_back(std::move(fn));
      return Status::ok();
    }
    default: return Status::ok();  // training_info and newer fields
  }
}

Result<ir::Model> read_model(const uint8_t* data, size_t size, ReadContext& ctx) {
  wire::WireReader r(data, size, "ModelProto");
  ir::Model m;
  Field f;
  while (!r.at_end()) {
    TRY(r.next(&f));
    TRY(read_model_field(f, ctx, &m));
  }
  if (!m.graph) return invalid_model("ModelProto.graph: the model has no graph");
  // IR version 3 and later must import opsets; older files implied ai.onnx version 1.
  if (m.opset_imports.empty()) {
    if (m.ir_version >= 3) return invalid_model("ModelProto.opset_import: no opset is imported");
    m.opset_imports[""] = 1;
  }
  return m;
}

}  // namespace

Result<ir::Model> load_model_bytes(const void* data, size_t size, const LoadOptions& options,
                                   std::shared_ptr<Storage> keepalive) {
  ReadContext ctx;
  ctx.options = options;
  ctx.keepalive = std::move(keepalive);
  return read_model(static_cast<const uint8_t*>(data), size, ctx);
}

Result<ir::Model> load_model_file(const std::string& path, const ResourceLimits& limits,
                                  std::vector<ExternalFileUse>* external_files) {
  auto file = FileBytes::read(path, limits);
  if (!file) return file.status();
  ReadContext ctx;
  ctx.options.limits = limits;
  std::filesystem::path folder = std::filesystem::path(path).parent_path();
  ctx.options.base_dir = folder.empty() ? std::string(".") : folder.string();
  ctx.keepalive = *file;
  ctx.external_uses = external_files;
  auto model = read_model(reinterpret_cast<const uint8_t*>((*file)->data()), (*file)->size(), ctx);
  if (!model) return model.status().with_context("'" + path + "': ");
  return model;
}

}  // namespace twinrt::onnx
