// Attributes made in code (the quantizer's graph edits, tests, fuzzers): one function per
// attribute type, so no caller fills ir::Attribute's fields by hand.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ir/ir.h"

namespace twinrt::ir {

inline Attribute named_attribute(std::string name, Attribute::Type type) {
  Attribute a;
  a.name = std::move(name);
  a.type = type;
  return a;
}
inline Attribute int_attribute(std::string name, int64_t v) {
  Attribute a = named_attribute(std::move(name), Attribute::Type::kInt);
  a.i = v;
  return a;
}
inline Attribute ints_attribute(std::string name, std::vector<int64_t> v) {
  Attribute a = named_attribute(std::move(name), Attribute::Type::kInts);
  a.ints = std::move(v);
  return a;
}
inline Attribute float_attribute(std::string name, float v) {
  Attribute a = named_attribute(std::move(name), Attribute::Type::kFloat);
  a.f = v;
  return a;
}
inline Attribute floats_attribute(std::string name, std::vector<float> v) {
  Attribute a = named_attribute(std::move(name), Attribute::Type::kFloats);
  a.floats = std::move(v);
  return a;
}
inline Attribute string_attribute(std::string name, std::string v) {
  Attribute a = named_attribute(std::move(name), Attribute::Type::kString);
  a.s = std::move(v);
  return a;
}
inline Attribute strings_attribute(std::string name, std::vector<std::string> v) {
  Attribute a = named_attribute(std::move(name), Attribute::Type::kStrings);
  a.strings = std::move(v);
  return a;
}
inline Attribute graph_attribute(std::string name, Graph g) {
  Attribute a = named_attribute(std::move(name), Attribute::Type::kGraph);
  a.g = std::make_shared<Graph>(std::move(g));
  return a;
}
inline Attribute type_attribute(std::string name, TypeInfo t) {
  Attribute a = named_attribute(std::move(name), Attribute::Type::kTypeProto);
  a.type_protos.push_back(std::move(t));
  return a;
}

}  // namespace twinrt::ir
