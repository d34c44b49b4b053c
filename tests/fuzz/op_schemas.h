// What the graph fuzzer knows about an op: its inputs, outputs, type constraints and
// attributes, taken from the ONNX schemas of libonnx-dev (ONNX 1.12, opsets up to 17).
// Kept free of ONNX headers: their `onnx` namespace would clash with twinrt::onnx.
#pragma once

#include <string>
#include <vector>

#include "ir/ir.h"

namespace twinrt::fuzz {

struct FormalValue {
  enum class Option { kSingle, kOptional, kVariadic };
  Option option = Option::kSingle;
  int min_arity = 1;       // kVariadic only
  int constraint = -1;     // index into OpSchema::constraints, or -1 for a fixed type
  std::vector<ir::TypeInfo> types;  // fixed types (constraint == -1)
};

struct AttributeSchema {
  std::string name;
  ir::Attribute::Type type = ir::Attribute::Type::kUndefined;
  bool required = false;
  std::string default_string;  // string attributes: the default, a value the op accepts
};

struct OpSchema {
  std::string domain;  // "" = ai.onnx
  std::string op_type;
  int since_version = 0;
  int max_inputs = 0;
  std::vector<FormalValue> inputs, outputs;
  std::vector<std::vector<ir::TypeInfo>> constraints;  // allowed types of each type parameter
  std::vector<AttributeSchema> attributes;
};

// The schema in force for `op_type` of `domain` at `opset`, or null where ONNX 1.12 has none
// (or it is deprecated there). The result lives as long as the program.
const OpSchema* find_schema(const std::string& domain, const std::string& op_type, int opset);

}  // namespace twinrt::fuzz
