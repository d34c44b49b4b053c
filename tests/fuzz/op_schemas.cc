#include "op_schemas.h"

#include <onnx/defs/schema.h>

#include <cstring>
#include <map>
#include <memory>
#include <tuple>

namespace twinrt::fuzz {
namespace {

DataType dtype_named(const std::string& name) {
  static const std::map<std::string, DataType> kNames = {
      {"float", DataType::kFloat},     {"double", DataType::kDouble},     {"float16", DataType::kFloat16},
      {"bfloat16", DataType::kBFloat16}, {"int8", DataType::kInt8},      {"int16", DataType::kInt16},
      {"int32", DataType::kInt32},     {"int64", DataType::kInt64},       {"uint8", DataType::kUInt8},
      {"uint16", DataType::kUInt16},   {"uint32", DataType::kUInt32},     {"uint64", DataType::kUInt64},
      {"bool", DataType::kBool},       {"string", DataType::kString},     {"complex64", DataType::kComplex64},
      {"complex128", DataType::kComplex128}};
  auto it = kNames.find(name);
  return it == kNames.end() ? DataType::kUndefined : it->second;
}

// "tensor(float)", "seq(tensor(int64))", "optional(seq(tensor(float)))"; false for map and
// sparse_tensor types, which graph inputs of the fuzzer never have.
bool parse_type(const std::string& s, ir::TypeInfo* out) {
  auto inner = [&](const char* prefix) -> std::string {
    size_t n = std::strlen(prefix);
    if (s.compare(0, n, prefix) != 0 || s.back() != ')') return {};
    return s.substr(n, s.size() - n - 1);
  };
  if (std::string e = inner("tensor("); !e.empty()) {
    DataType d = dtype_named(e);
    if (d == DataType::kUndefined) return false;
    *out = ir::TypeInfo::tensor(d);
    return true;
  }
  ir::TypeInfo element;
  if (std::string e = inner("seq("); !e.empty() && parse_type(e, &element)) {
    *out = ir::TypeInfo::sequence_of(element);
    return true;
  }
  if (std::string e = inner("optional("); !e.empty() && parse_type(e, &element)) {
    *out = ir::TypeInfo::optional_of(element);
    return true;
  }
  return false;
}

std::vector<ir::TypeInfo> parse_types(const std::vector<std::string>& names) {
  std::vector<ir::TypeInfo> types;
  for (const std::string& n : names) {
    ir::TypeInfo t;
    if (parse_type(n, &t)) types.push_back(std::move(t));
  }
  return types;
}

FormalValue formal(const ::onnx::OpSchema::FormalParameter& p, const ::onnx::OpSchema& s) {
  FormalValue f;
  switch (p.GetOption()) {
    case ::onnx::OpSchema::Optional: f.option = FormalValue::Option::kOptional; break;
    case ::onnx::OpSchema::Variadic: f.option = FormalValue::Option::kVariadic; break;
    default: break;
  }
  f.min_arity = p.GetMinArity();
  const auto& params = s.typeConstraintParams();
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].type_param_str == p.GetTypeStr()) f.constraint = static_cast<int>(i);
  if (f.constraint < 0) f.types = parse_types({p.GetTypeStr()});
  return f;
}

OpSchema convert(const ::onnx::OpSchema& s, const std::string& domain) {
  OpSchema out;
  out.domain = domain;
  out.op_type = s.Name();
  out.since_version = s.since_version();
  out.max_inputs = s.max_input();
  for (const auto& p : s.inputs()) out.inputs.push_back(formal(p, s));
  for (const auto& p : s.outputs()) out.outputs.push_back(formal(p, s));
  for (const auto& c : s.typeConstraintParams()) out.constraints.push_back(parse_types(c.allowed_type_strs));
  for (const auto& [name, a] : s.attributes()) {
    AttributeSchema as;
    as.name = name;
    as.type = static_cast<ir::Attribute::Type>(a.type);  // both follow AttributeProto's numbering
    as.required = a.required;
    if (a.default_value.has_s()) as.default_string = a.default_value.s();
    out.attributes.push_back(std::move(as));
  }
  return out;
}

}  // namespace

const OpSchema* find_schema(const std::string& domain, const std::string& op_type, int opset) {
  static std::map<std::tuple<std::string, std::string, int>, std::unique_ptr<OpSchema>> cache;
  auto key = std::make_tuple(domain, op_type, opset);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second.get();
  const ::onnx::OpSchema* s = ::onnx::OpSchemaRegistry::Schema(op_type, opset, domain);
  std::unique_ptr<OpSchema> converted;
  if (s && !s->Deprecated()) converted = std::make_unique<OpSchema>(convert(*s, domain));
  return cache.emplace(key, std::move(converted)).first->second.get();
}

}  // namespace twinrt::fuzz
