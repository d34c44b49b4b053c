#include "onnx/graph_reader.h"

#include "onnx/proto_fields.h"
#include "onnx/tensor_reader.h"
#include "onnx/type_reader.h"
#include "onnx/wire.h"

namespace twinrt::onnx {
namespace {

using wire::Field;
using wire::WireType;

Status read_node_field(const Field& f, ReadContext& ctx, ir::Node* n) {
  switch (f.number) {
    case node_proto::kInput: {
      ASSIGN_OR_RETURN(std::string s, wire::as_string(f, "NodeProto.input"));
      n->inputs.push_back(std::move(s));
      return Status::ok();
    }
    case node_proto::kOutput: {
      ASSIGN_OR_RETURN(std::string s, wire::as_string(f, "NodeProto.output"));
      n->outputs.push_back(std::move(s));
      return Status::ok();
    }
    case node_proto::kName: {
      ASSIGN_OR_RETURN(n->name, wire::as_string(f, "NodeProto.name"));
      return Status::ok();
    }
    case node_proto::kOpType: {
      ASSIGN_OR_RETURN(n->op_type, wire::as_string(f, "NodeProto.op_type"));
      return Status::ok();
    }
    case node_proto::kDomain: {
      ASSIGN_OR_RETURN(n->domain, wire::as_string(f, "NodeProto.domain"));
      n->domain = ir::canonical_domain(n->domain);
      return Status::ok();
    }
    case node_proto::kDocString: {
      ASSIGN_OR_RETURN(n->doc, wire::as_string(f, "NodeProto.doc_string"));
      return Status::ok();
    }
    case node_proto::kAttribute: {
      TRY(wire::expect_type(f, WireType::kLen, "NodeProto.attribute"));
      ASSIGN_OR_RETURN(ir::Attribute a, read_attribute(f.data, f.size, ctx));
      n->attributes.push_back(std::move(a));
      return Status::ok();
    }
    default: return Status::ok();
  }
}

// Adds an initializer; a repeated name would silently shadow the first one, so refuse it.
Status add_initializer(ir::Graph* g, std::string name, Tensor t) {
  if (name.empty()) return invalid_model("an initializer has no name");
  if (g->initializers.count(name)) return invalid_model("initializer '" + name + "' is defined twice");
  g->initializer_order.push_back(name);
  g->initializers.emplace(std::move(name), std::move(t));
  return Status::ok();
}

Status read_graph_field(const Field& f, ReadContext& ctx, ir::Graph* g) {
  switch (f.number) {
    case graph_proto::kNode: {
      TRY(wire::expect_type(f, WireType::kLen, "GraphProto.node"));
      ASSIGN_OR_RETURN(ir::Node n, read_node(f.data, f.size, ctx));
      g->nodes.push_back(std::move(n));
      return Status::ok();
    }
    case graph_proto::kName: {
      ASSIGN_OR_RETURN(g->name, wire::as_string(f, "GraphProto.name"));
      return Status::ok();
    }
    case graph_proto::kDocString: {
      ASSIGN_OR_RETURN(g->doc, wire::as_string(f, "GraphProto.doc_string"));
      return Status::ok();
    }
    case graph_proto::kInitializer:
    case graph_proto::kSparseInitializer: {
      bool sparse = f.number == graph_proto::kSparseInitializer;
      const char* field = sparse ? "GraphProto.sparse_initializer" : "GraphProto.initializer";
      TRY(wire::expect_type(f, WireType::kLen, field));
      std::string name;
      auto t = sparse ? read_sparse_tensor(f.data, f.size, ctx, &name)
                      : read_tensor(f.data, f.size, ctx, &name);
      if (!t) return t.status().with_context(std::string(field) + ": ");
      return add_initializer(g, std::move(name), std::move(t).value());
    }
    case graph_proto::kInput:
    case graph_proto::kOutput:
    case graph_proto::kValueInfo: {
      const char* field = f.number == graph_proto::kInput    ? "GraphProto.input"
                          : f.number == graph_proto::kOutput ? "GraphProto.output"
                                                             : "GraphProto.value_info";
      TRY(wire::expect_type(f, WireType::kLen, field));
      auto v = read_value_info(f.data, f.size, ctx);
      if (!v) return v.status().with_context(std::string(field) + ": ");
      auto& list = f.number == graph_proto::kInput    ? g->inputs
                   : f.number == graph_proto::kOutput ? g->outputs
                                                      : g->value_info;
      list.push_back(std::move(v).value());
      return Status::ok();
    }
    default: return Status::ok();  // quantization_annotation, newer fields
  }
}

// The dense sizes every initializer declares (sparse ones and external data included),
// checked together before any is read: eight sparse 1 GiB tensors fail before the first
// is densified, not after the memory limit is reached.
Status check_declared_initializers(const uint8_t* data, size_t size, const ReadContext& ctx) {
  if (ctx.options.limits.max_memory_bytes == 0) return Status::ok();
  wire::WireReader r(data, size, "GraphProto");
  Field f;
  uint64_t total = 0;
  while (!r.at_end()) {
    if (!r.next(&f)) return Status::ok();  // the graph reader reports it
    const bool sparse = f.number == graph_proto::kSparseInitializer;
    if ((!sparse && f.number != graph_proto::kInitializer) || f.type != WireType::kLen) continue;
    const uint64_t bytes = declared_tensor_bytes(f.data, f.size, sparse);
    total = bytes > UINT64_MAX - total ? UINT64_MAX : total + bytes;
  }
  return check_memory_bytes(ctx.tensor_bytes, total, "the graph's initializers together", ctx.options.limits);
}

}  // namespace

Result<ir::Node> read_node(const uint8_t* data, size_t size, ReadContext& ctx) {
  wire::WireReader r(data, size, "NodeProto");
  ir::Node n;
  Field f;
  while (!r.at_end()) {
    Status st = r.next(&f);
    if (st) st = read_node_field(f, ctx, &n);
    // Name and op_type usually precede attributes, so the context is known by then.
    if (!st) return st.with_context(n.describe() + ": ");
  }
  return n;
}

Result<std::shared_ptr<ir::Graph>> read_graph(const uint8_t* data, size_t size, ReadContext& ctx) {
  NestingGuard guard(ctx);
  TRY(guard.check("GraphProto"));
  TRY(check_declared_initializers(data, size, ctx));
  wire::WireReader r(data, size, "GraphProto");
  auto g = std::make_shared<ir::Graph>();
  Field f;
  while (!r.at_end()) {
    Status st = r.next(&f);
    if (st) st = read_graph_field(f, ctx, g.get());
    if (!st) return st.with_context(g->name.empty() ? "" : "graph '" + g->name + "': ");
  }
  return g;
}

}  // namespace twinrt::onnx
