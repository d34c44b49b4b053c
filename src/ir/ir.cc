#include "ir/ir.h"

namespace twinrt::ir {

std::string shape_to_string(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) out += ",";
    if (s[i].known()) out += std::to_string(s[i].value);
    else out += s[i].symbol.empty() ? "?" : s[i].symbol;
  }
  return out + "]";
}

bool shape_is_static(const Shape& s) {
  for (const Dim& d : s)
    if (!d.known()) return false;
  return true;
}

std::vector<int64_t> static_dims(const Shape& s) {
  std::vector<int64_t> out;
  out.reserve(s.size());
  for (const Dim& d : s) out.push_back(d.value);
  return out;
}

Shape shape_of(const std::vector<int64_t>& dims) {
  Shape s;
  s.reserve(dims.size());
  for (int64_t d : dims) s.push_back(Dim::of(d));
  return s;
}

std::string type_to_string(const TypeInfo& t) {
  switch (t.kind) {
    case TypeInfo::Kind::kTensor:
    case TypeInfo::Kind::kSparseTensor: {
      std::string s = std::string(t.kind == TypeInfo::Kind::kTensor ? "tensor(" : "sparse_tensor(") +
                      dtype_name(t.elem) + ")";
      if (t.shape) s += shape_to_string(*t.shape);
      return s;
    }
    case TypeInfo::Kind::kSequence:
      return "seq(" + (t.inner ? type_to_string(*t.inner) : std::string("?")) + ")";
    case TypeInfo::Kind::kOptional:
      return "optional(" + (t.inner ? type_to_string(*t.inner) : std::string("?")) + ")";
    case TypeInfo::Kind::kMap:
      return std::string("map(") + dtype_name(t.key) + "," + dtype_name(t.elem) + ")";
    case TypeInfo::Kind::kUnknown:
      return "unknown";
  }
  return "unknown";
}

const char* attribute_type_name(Attribute::Type t) {
  switch (t) {
    case Attribute::Type::kFloat: return "float";
    case Attribute::Type::kInt: return "int";
    case Attribute::Type::kString: return "string";
    case Attribute::Type::kTensor: return "tensor";
    case Attribute::Type::kGraph: return "graph";
    case Attribute::Type::kFloats: return "floats";
    case Attribute::Type::kInts: return "ints";
    case Attribute::Type::kStrings: return "strings";
    case Attribute::Type::kTensors: return "tensors";
    case Attribute::Type::kGraphs: return "graphs";
    case Attribute::Type::kSparseTensor: return "sparse_tensor";
    case Attribute::Type::kSparseTensors: return "sparse_tensors";
    case Attribute::Type::kTypeProto: return "type_proto";
    case Attribute::Type::kTypeProtos: return "type_protos";
    case Attribute::Type::kUndefined: return "undefined";
  }
  return "undefined";
}

const Attribute* Node::attr(const std::string& attr_name) const {
  for (const Attribute& a : attributes)
    if (a.name == attr_name) return &a;
  return nullptr;
}

std::string Node::describe() const {
  std::string d = domain.empty() ? op_type : domain + ":" + op_type;
  std::string fused;
  for (const std::string& f : fused_from) fused += " + '" + f + "'";
  return "node '" + name + "'" + fused + " (" + d + (fused.empty() ? "" : ", fused") + ")";
}

std::string canonical_domain(const std::string& domain) {
  return domain == "ai.onnx" ? std::string() : domain;
}

int64_t Model::opset(const std::string& d) const {
  auto it = opset_imports.find(canonical_domain(d));
  return it == opset_imports.end() ? 0 : it->second;
}

}  // namespace twinrt::ir
