#include "ops/op.h"

#include <algorithm>

namespace twinrt {

DataType KernelInit::input_dtype(size_t i) const {
  if (!has_input(i) || i >= input_types.size()) return DataType::kUndefined;
  const ir::TypeInfo& t = input_types[i];
  return t.is_tensor() ? t.elem : DataType::kUndefined;
}

namespace {

Status wrong_type(const ir::Node& node, const ir::Attribute& a, const char* expected) {
  return invalid_model(node.describe() + ": attribute '" + a.name + "' is " +
                       ir::attribute_type_name(a.type) + ", expected " + expected);
}

}  // namespace

Result<int64_t> KernelInit::attr_int(const std::string& name, int64_t def) const {
  const ir::Attribute* a = attr(name);
  if (!a) return def;
  if (a->type != ir::Attribute::Type::kInt) return wrong_type(node, *a, "int");
  return a->i;
}

Result<float> KernelInit::attr_float(const std::string& name, float def) const {
  const ir::Attribute* a = attr(name);
  if (!a) return def;
  if (a->type != ir::Attribute::Type::kFloat) return wrong_type(node, *a, "float");
  return a->f;
}

Result<std::string> KernelInit::attr_string(const std::string& name, const std::string& def) const {
  const ir::Attribute* a = attr(name);
  if (!a) return def;
  if (a->type != ir::Attribute::Type::kString) return wrong_type(node, *a, "string");
  return a->s;
}

Result<std::vector<int64_t>> KernelInit::attr_ints(const std::string& name,
                                                   std::vector<int64_t> def) const {
  const ir::Attribute* a = attr(name);
  if (!a) return def;
  if (a->type != ir::Attribute::Type::kInts) return wrong_type(node, *a, "ints");
  return a->ints;
}

Result<std::vector<float>> KernelInit::attr_floats(const std::string& name,
                                                   std::vector<float> def) const {
  const ir::Attribute* a = attr(name);
  if (!a) return def;
  if (a->type != ir::Attribute::Type::kFloats) return wrong_type(node, *a, "floats");
  return a->floats;
}

Result<std::vector<std::string>> KernelInit::attr_strings(const std::string& name,
                                                          std::vector<std::string> def) const {
  const ir::Attribute* a = attr(name);
  if (!a) return def;
  if (a->type != ir::Attribute::Type::kStrings) return wrong_type(node, *a, "strings");
  return a->strings;
}

Result<Tensor> KernelInit::attr_tensor(const std::string& name) const {
  const ir::Attribute* a = attr(name);
  if (!a) return invalid_model(node.describe() + ": missing attribute '" + name + "'");
  if (a->type != ir::Attribute::Type::kTensor) return wrong_type(node, *a, "tensor");
  return a->t;
}

const ir::Attribute* KernelInit::attr(const std::string& name) const {
  attributes_read.insert(name);
  return node.attr(name);
}

void KernelInit::accept_attributes(std::initializer_list<const char*> names) const {
  for (const char* n : names) attributes_read.insert(n);
}

Status KernelInit::error(const std::string& message) const {
  return invalid_model(node.describe() + ": " + message);
}

Status KernelInit::unsupported(const std::string& message) const {
  return not_implemented(node.describe() + ": " + message);
}

std::optional<std::vector<int64_t>> InferContext::static_shape(size_t i) const {
  const ir::Shape* s = shape(i);
  if (!s || !ir::shape_is_static(*s)) return std::nullopt;
  return ir::static_dims(*s);
}

const ir::Shape* InferContext::shape(size_t i) const {
  if (!has_input(i) || i >= input_types.size()) return nullptr;
  const ir::TypeInfo& t = input_types[i];
  if (!t.is_tensor() || !t.shape) return nullptr;
  return &*t.shape;
}

DataType InferContext::dtype(size_t i) const {
  if (!has_input(i) || i >= input_types.size()) return DataType::kUndefined;
  const ir::TypeInfo& t = input_types[i];
  return t.is_tensor() ? t.elem : DataType::kUndefined;
}

void InferContext::set_output(size_t i, DataType dt, std::optional<ir::Shape> s) {
  if (i < output_types.size()) output_types[i] = ir::TypeInfo::tensor(dt, std::move(s));
}

void InferContext::set_output(size_t i, DataType dt, const std::vector<int64_t>& dims) {
  set_output(i, dt, ir::shape_of(dims));
}

void InferContext::same_as_input(size_t out, size_t in) {
  const DataType t = dtype(in);
  if (t == DataType::kUndefined) return;
  const ir::Shape* s = shape(in);
  set_output(out, t, s ? std::optional<ir::Shape>(*s) : std::nullopt);
}

Result<const Tensor*> RunContext::tensor_input(size_t i) const {
  const Value* v = input_value(i);
  if (!v) return invalid_argument("input " + std::to_string(i) + " is missing");
  if (!v->is_tensor()) return invalid_argument("input " + std::to_string(i) + " is not a tensor");
  return &v->tensor;
}

Status OpKernel::infer(InferContext&) const { return Status::ok(); }

OpRegistry& OpRegistry::instance() {
  static OpRegistry registry;
  return registry;
}

void OpRegistry::add(OpRegistration r) {
  r.domain = ir::canonical_domain(r.domain);
  regs_.push_back(std::move(r));
}

std::vector<const OpRegistration*> OpRegistry::find(const std::string& domain,
                                                    const std::string& op_type,
                                                    int64_t opset) const {
  std::string d = ir::canonical_domain(domain);
  std::vector<const OpRegistration*> out;
  for (const auto& r : regs_)
    if (r.domain == d && r.op_type == op_type && opset >= r.since_version && opset <= r.last_version)
      out.push_back(&r);
  std::stable_sort(out.begin(), out.end(),
                   [](const auto* a, const auto* b) { return a->priority > b->priority; });
  return out;
}

bool OpRegistry::knows(const std::string& domain, const std::string& op_type) const {
  std::string d = ir::canonical_domain(domain);
  return std::any_of(regs_.begin(), regs_.end(),
                     [&](const auto& r) { return r.domain == d && r.op_type == op_type; });
}

std::vector<std::string> OpRegistry::op_names() const {
  std::vector<std::string> names;
  for (const auto& r : regs_) names.push_back(r.domain.empty() ? r.op_type : r.domain + ":" + r.op_type);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

Result<std::unique_ptr<OpKernel>> create_kernel(const std::string& domain, const KernelInit& init) {
  auto regs = OpRegistry::instance().find(domain, init.node.op_type, init.opset);
  if (regs.empty()) {
    std::string why = OpRegistry::instance().knows(domain, init.node.op_type)
                          ? " at opset " + std::to_string(init.opset)
                          : "";
    return not_implemented(init.node.describe() + ": operator not supported" + why);
  }
  Status last;
  for (const OpRegistration* r : regs) {
    auto k = r->factory(init);
    if (k.is_ok() || k.status().code() != StatusCode::kNotImplemented) return k;
    last = k.status();
  }
  return last;
}

}  // namespace twinrt
