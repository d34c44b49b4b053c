#include "cli/model_summary.h"

#include <cstdio>
#include <functional>
#include <set>

#include "io/sha256.h"
#include "onnx/loader.h"
#include "io/regular_file.h"
#include "ops/op.h"

namespace twinrt::cli {
namespace {

IoSummary io_summary(const ir::ValueInfo& v) {
  IoSummary s{v.name, ir::type_to_string(v.type), {}};
  const ir::TypeInfo* t = &v.type;
  while (t->inner) t = t->inner.get();  // sequence/optional: the element tensor's axes
  if (t->shape)
    for (size_t i = 0; i < t->shape->size(); ++i)
      if (!(*t->shape)[i].known())
        s.dynamic_axes.emplace_back(i, (*t->shape)[i].symbol.empty() ? "?" : (*t->shape)[i].symbol);
  return s;
}

std::string op_key(const ir::Node& n) {
  const std::string d = ir::canonical_domain(n.domain);
  return d.empty() ? n.op_type : d + ":" + n.op_type;
}

// Calls `visit_graph` for `g` and for every graph nested in its nodes' attributes.
void for_each_graph(const ir::Graph& g, const std::function<void(const ir::Graph&)>& visit_graph) {
  visit_graph(g);
  for (const ir::Node& n : g.nodes)
    for (const ir::Attribute& a : n.attributes) {
      if (a.g) for_each_graph(*a.g, visit_graph);
      for (const auto& sub : a.graphs)
        if (sub) for_each_graph(*sub, visit_graph);
    }
}

void add_tensor(const Tensor& t, std::map<DataType, ParamGroup>& groups) {
  ParamGroup& p = groups[t.dtype()];
  p.dtype = t.dtype();
  p.tensors += 1;
  p.elements += t.numel();
  if (t.dtype() != DataType::kString) {
    p.bytes += static_cast<int64_t>(t.nbytes());
  } else {
    for (int64_t i = 0; i < t.numel(); ++i) p.bytes += static_cast<int64_t>(t.data<std::string>()[i].size());
  }
}

// Some exporters (PaddlePaddle, older PyTorch) store weights in Constant nodes instead
// of initializers; both count as parameters, reported apart.
void add_constant_node_values(const ir::Graph& g, std::map<DataType, ParamGroup>& groups) {
  for (const ir::Node& n : g.nodes) {
    if (n.op_type != "Constant" || !ir::canonical_domain(n.domain).empty()) continue;
    for (const ir::Attribute& a : n.attributes)
      if (a.type == ir::Attribute::Type::kTensor || a.type == ir::Attribute::Type::kSparseTensor)
        add_tensor(a.t, groups);
  }
}

std::vector<ParamGroup> group_list(const std::map<DataType, ParamGroup>& groups) {
  std::vector<ParamGroup> out;
  for (const auto& [dtype, group] : groups) out.push_back(group);
  return out;
}

// Nodes twinrt has no kernel for at the opset in force. Calls to model-local functions
// are fine (they are inlined); their bodies are checked with the function's opsets.
std::vector<UnsupportedOp> find_unsupported(const ir::Model& model) {
  std::set<std::pair<std::string, std::string>> local_functions;
  for (const ir::Function& f : model.functions)
    local_functions.emplace(ir::canonical_domain(f.domain), f.name);
  std::map<std::pair<std::string, int64_t>, UnsupportedOp> found;
  auto check = [&](const ir::Node& n, int64_t opset) {
    const std::string domain = ir::canonical_domain(n.domain);
    if (local_functions.count({domain, n.op_type})) return;
    const OpRegistry& reg = OpRegistry::instance();
    if (!reg.find(domain, n.op_type, opset).empty()) return;
    UnsupportedOp& u = found[{display_domain(domain) + ":" + n.op_type, opset}];
    u.op = display_domain(domain) + ":" + n.op_type;
    u.opset = opset;
    u.nodes += 1;
    u.other_opsets_supported = reg.knows(domain, n.op_type);
  };
  for_each_graph(*model.graph, [&](const ir::Graph& g) {
    for (const ir::Node& n : g.nodes) check(n, model.opset(n.domain));
  });
  for (const ir::Function& f : model.functions)
    for (const ir::Node& n : f.nodes) {
      auto it = f.opset_imports.find(ir::canonical_domain(n.domain));
      check(n, it != f.opset_imports.end() ? it->second : model.opset(n.domain));
    }
  std::vector<UnsupportedOp> out;
  for (auto& [key, u] : found) out.push_back(u);
  return out;
}

// Hashes the external-data files the loader used: the loader's resolver already confined
// them to the model's folder and to regular files, so `inspect` reads nothing else.
Result<std::vector<ExternalFile>> hash_external_files(const std::vector<onnx::ExternalFileUse>& uses) {
  std::vector<ExternalFile> files;
  for (const onnx::ExternalFileUse& use : uses) {
    ASSIGN_OR_RETURN(io::RegularFile file, io::RegularFile::open(use.path, "external data file"));
    ASSIGN_OR_RETURN(std::string hash, io::sha256_file_hex(use.path));
    files.push_back(ExternalFile{use.location, file.size(), hash});
  }
  return files;
}

}  // namespace

std::string display_domain(const std::string& domain) {
  return ir::canonical_domain(domain).empty() ? "ai.onnx" : domain;
}

std::string format_bytes(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

int64_t total_elements(const std::vector<ParamGroup>& groups) {
  int64_t n = 0;
  for (const ParamGroup& p : groups) n += p.elements;
  return n;
}

int64_t total_bytes(const std::vector<ParamGroup>& groups) {
  int64_t n = 0;
  for (const ParamGroup& p : groups) n += p.bytes;
  return n;
}

Result<ModelSummary> summarize_model(const std::string& path) {
  std::vector<onnx::ExternalFileUse> external_uses;
  ASSIGN_OR_RETURN(ir::Model model, onnx::load_model_file(path, current_limits(), &external_uses));
  ASSIGN_OR_RETURN(io::RegularFile model_file, io::RegularFile::open(path, "model"));
  ModelSummary s;
  s.path = path;
  s.file_size = model_file.size();
  ASSIGN_OR_RETURN(s.sha256, io::sha256_file_hex(path));
  ASSIGN_OR_RETURN(s.external_files, hash_external_files(external_uses));
  s.ir_version = model.ir_version;
  s.producer = model.producer_name + (model.producer_version.empty() ? "" : " " + model.producer_version);
  s.domain = model.domain;
  s.model_version = model.model_version;
  s.doc = model.doc;
  for (const auto& [domain, version] : model.opset_imports) s.opsets[display_domain(domain)] = version;
  s.metadata = model.metadata_props;
  const ir::Graph& g = *model.graph;
  for (const ir::ValueInfo& in : g.inputs)
    if (!g.initializers.count(in.name)) s.inputs.push_back(io_summary(in));
  for (const ir::ValueInfo& out : g.outputs) s.outputs.push_back(io_summary(out));
  std::map<DataType, ParamGroup> initializers, constants;
  for_each_graph(g, [&](const ir::Graph& sub) {
    for (const ir::Node& n : sub.nodes) s.op_histogram[op_key(n)] += 1;
    s.node_count += static_cast<int64_t>(sub.nodes.size());
    for (const auto& [name, t] : sub.initializers) add_tensor(t, initializers);
    add_constant_node_values(sub, constants);
  });
  s.params = group_list(initializers);
  s.constant_params = group_list(constants);
  s.unsupported = find_unsupported(model);
  return s;
}

}  // namespace twinrt::cli
