// Test-data files: TensorProto, SequenceProto and OptionalProto → Value.
#include "onnx/loader.h"
#include "onnx/proto_fields.h"
#include "onnx/reader_context.h"
#include "onnx/tensor_reader.h"
#include "onnx/wire.h"

namespace twinrt::onnx {
namespace {

using wire::Field;
using wire::WireType;

DataType tensor_elem(const ir::TypeInfo* t) {
  return t && t->kind == ir::TypeInfo::Kind::kTensor ? t->elem : DataType::kUndefined;
}

Result<Value> read_sequence(const uint8_t* data, size_t size, const ir::TypeInfo& expected,
                            ReadContext& ctx) {
  NestingGuard guard(ctx);
  TRY(guard.check("SequenceProto"));
  wire::WireReader r(data, size, "SequenceProto");
  std::vector<Tensor> items;
  Field f;
  while (!r.at_end()) {
    TRY(r.next(&f));
    switch (f.number) {
      case sequence_proto::kTensorValues: {
        TRY(wire::expect_type(f, WireType::kLen, "SequenceProto.tensor_values"));
        ASSIGN_OR_RETURN(Tensor t, read_tensor(f.data, f.size, ctx));
        items.push_back(std::move(t));
        break;
      }
      case sequence_proto::kSparseTensorValues:
      case sequence_proto::kSequenceValues:
      case sequence_proto::kMapValues:
      case sequence_proto::kOptionalValues:
        return not_implemented("SequenceProto: only sequences of tensors are supported (field " +
                               std::to_string(f.number) + ")");
      default: break;  // name, elem_type
    }
  }
  DataType elem = tensor_elem(expected.inner.get());
  if (elem == DataType::kUndefined && !items.empty()) elem = items.front().dtype();
  for (const Tensor& t : items)
    if (t.dtype() != elem)
      return invalid_model(std::string("SequenceProto: element of type ") + dtype_name(t.dtype()) +
                           " in a sequence of " + dtype_name(elem));
  return Value::of_sequence(std::move(items), elem);
}

Result<Value> read_optional(const uint8_t* data, size_t size, const ir::TypeInfo& expected,
                            ReadContext& ctx) {
  NestingGuard guard(ctx);
  TRY(guard.check("OptionalProto"));
  wire::WireReader r(data, size, "OptionalProto");
  static const ir::TypeInfo kUnknown;
  const ir::TypeInfo& inner = expected.inner ? *expected.inner : kUnknown;
  std::shared_ptr<const Value> held;
  Field f;
  while (!r.at_end()) {
    TRY(r.next(&f));
    switch (f.number) {
      case optional_proto::kTensorValue: {
        TRY(wire::expect_type(f, WireType::kLen, "OptionalProto.tensor_value"));
        ASSIGN_OR_RETURN(Tensor t, read_tensor(f.data, f.size, ctx));
        held = std::make_shared<const Value>(Value::of(std::move(t)));
        break;
      }
      case optional_proto::kSequenceValue: {
        TRY(wire::expect_type(f, WireType::kLen, "OptionalProto.sequence_value"));
        ASSIGN_OR_RETURN(Value v, read_sequence(f.data, f.size, inner, ctx));
        held = std::make_shared<const Value>(std::move(v));
        break;
      }
      case optional_proto::kOptionalValue: {
        TRY(wire::expect_type(f, WireType::kLen, "OptionalProto.optional_value"));
        ASSIGN_OR_RETURN(Value v, read_optional(f.data, f.size, inner, ctx));
        held = std::make_shared<const Value>(std::move(v));
        break;
      }
      case optional_proto::kSparseTensorValue:
      case optional_proto::kMapValue:
        return not_implemented("OptionalProto: sparse tensor and map values are not supported");
      default: break;  // name, elem_type
    }
  }
  return Value::of_optional(std::move(held));
}

Result<Value> read_value(const uint8_t* data, size_t size, const ir::TypeInfo& expected, ReadContext& ctx) {
  switch (expected.kind) {
    case ir::TypeInfo::Kind::kSequence: return read_sequence(data, size, expected, ctx);
    case ir::TypeInfo::Kind::kOptional: return read_optional(data, size, expected, ctx);
    case ir::TypeInfo::Kind::kMap: return not_implemented("map values are not supported");
    case ir::TypeInfo::Kind::kSparseTensor: {
      ASSIGN_OR_RETURN(Tensor t, read_sparse_tensor(data, size, ctx));
      return Value::of(std::move(t));
    }
    case ir::TypeInfo::Kind::kTensor:
    case ir::TypeInfo::Kind::kUnknown: {
      ASSIGN_OR_RETURN(Tensor t, read_tensor(data, size, ctx));
      return Value::of(std::move(t));
    }
  }
  return internal_error("unhandled value kind");
}

}  // namespace

Result<Tensor> parse_tensor(const void* data, size_t size) {
  ReadContext ctx;
  return read_tensor(static_cast<const uint8_t*>(data), size, ctx);
}

Result<Value> parse_value(const void* data, size_t size, const ir::TypeInfo& expected) {
  ReadContext ctx;
  return read_value(static_cast<const uint8_t*>(data), size, expected, ctx);
}

}  // namespace twinrt::onnx
