#include "onnx/type_reader.h"

#include "onnx/proto_fields.h"
#include "onnx/wire.h"

namespace twinrt::onnx {
namespace {

using wire::Field;
using wire::WireReader;
using wire::WireType;

Result<ir::Dim> read_dimension(const uint8_t* data, size_t size) {
  WireReader r(data, size, "TensorShapeProto.Dimension");
  ir::Dim dim;
  Field f;
  while (!r.at_end()) {
    TRY(r.next(&f));
    if (f.number == tensor_shape_proto::dimension::kDimValue) {
      ASSIGN_OR_RETURN(dim.value, wire::as_int64(f, "TensorShapeProto.Dimension.dim_value"));
      if (dim.value < 0)
        return invalid_model("TensorShapeProto.Dimension.dim_value: negative size " +
                             std::to_string(dim.value));
      dim.symbol.clear();
    } else if (f.number == tensor_shape_proto::dimension::kDimParam) {
      ASSIGN_OR_RETURN(dim.symbol, wire::as_string(f, "TensorShapeProto.Dimension.dim_param"));
      dim.value = -1;
    }
  }
  return dim;
}

Result<ir::Shape> read_shape(const uint8_t* data, size_t size) {
  WireReader r(data, size, "TensorShapeProto");
  ir::Shape shape;
  Field f;
  while (!r.at_end()) {
    TRY(r.next(&f));
    if (f.number != tensor_shape_proto::kDim) continue;
    TRY(wire::expect_type(f, WireType::kLen, "TensorShapeProto.dim"));
    ASSIGN_OR_RETURN(ir::Dim d, read_dimension(f.data, f.size));
    shape.push_back(std::move(d));
  }
  return shape;
}

Result<DataType> read_elem_type(const Field& f, const char* name) {
  ASSIGN_OR_RETURN(int32_t code, wire::as_int32(f, name));
  if (code != 0 && !dtype_is_valid(code))
    return invalid_model(std::string(name) + ": unknown element type " + std::to_string(code));
  return static_cast<DataType>(code);
}

// TypeProto.Tensor and TypeProto.SparseTensor share their layout.
Status read_tensor_type(const uint8_t* data, size_t size, const char* message, ir::TypeInfo* t) {
  WireReader r(data, size, message);
  Field f;
  while (!r.at_end()) {
    TRY(r.next(&f));
    if (f.number == type_proto::tensor::kElemType) {
      ASSIGN_OR_RETURN(t->elem, read_elem_type(f, "TypeProto.Tensor.elem_type"));
    } else if (f.number == type_proto::tensor::kShape) {
      TRY(wire::expect_type(f, WireType::kLen, "TypeProto.Tensor.shape"));
      ASSIGN_OR_RETURN(t->shape, read_shape(f.data, f.size));
    }
  }
  return Status::ok();
}

// TypeProto.Sequence and TypeProto.Optional: a single nested element type.
Result<std::shared_ptr<ir::TypeInfo>> read_inner_type(const uint8_t* data, size_t size,
                                                      const char* message, ReadContext& ctx) {
  WireReader r(data, size, message);
  auto inner = std::make_shared<ir::TypeInfo>();
  Field f;
  while (!r.at_end()) {
    TRY(r.next(&f));
    if (f.number != type_proto::sequence::kElemType) continue;
    TRY(wire::expect_type(f, WireType::kLen, message));
    ASSIGN_OR_RETURN(*inner, read_type(f.data, f.size, ctx));
  }
  return inner;
}

Status read_map_type(const uint8_t* data, size_t size, ReadContext& ctx, ir::TypeInfo* t) {
  WireReader r(data, size, "TypeProto.Map");
  Field f;
  while (!r.at_end()) {
    TRY(r.next(&f));
    if (f.number == type_proto::map::kKeyType) {
      ASSIGN_OR_RETURN(t->key, read_elem_type(f, "TypeProto.Map.key_type"));
    } else if (f.number == type_proto::map::kValueType) {
      TRY(wire::expect_type(f, WireType::kLen, "TypeProto.Map.value_type"));
      ASSIGN_OR_RETURN(ir::TypeInfo value, read_type(f.data, f.size, ctx));
      t->elem = value.elem;
      t->inner = std::make_shared<ir::TypeInfo>(std::move(value));
    }
  }
  return Status::ok();
}

}  // namespace

Result<ir::TypeInfo> read_type(const uint8_t* data, size_t size, ReadContext& ctx) {
  NestingGuard guard(ctx);
  TRY(guard.check("TypeProto"));
  WireReader r(data, size, "TypeProto");
  ir::TypeInfo t;
  Field f;
  while (!r.at_end()) {
    TRY(r.next(&f));
    switch (f.number) {
      case type_proto::kTensorType:
      case type_proto::kSparseTensorType: {
        bool sparse = f.number == type_proto::kSparseTensorType;
        const char* message = sparse ? "TypeProto.SparseTensor" : "TypeProto.Tensor";
        TRY(wire::expect_type(f, WireType::kLen, message));
        t = ir::TypeInfo{};
        t.kind = sparse ? ir::TypeInfo::Kind::kSparseTensor : ir::TypeInfo::Kind::kTensor;
        TRY(read_tensor_type(f.data, f.size, message, &t));
        break;
      }
      case type_proto::kSequenceType:
      case type_proto::kOptionalType: {
        bool optional = f.number == type_proto::kOptionalType;
        const char* message = optional ? "TypeProto.Optional" : "TypeProto.Sequence";
        TRY(wire::expect_type(f, WireType::kLen, message));
        t = ir::TypeInfo{};
        t.kind = optional ? ir::TypeInfo::Kind::kOptional : ir::TypeInfo::Kind::kSequence;
        ASSIGN_OR_RETURN(t.inner, read_inner_type(f.data, f.size, message, ctx));
        break;
      }
      case type_proto::kMapType: {
        TRY(wire::expect_type(f, WireType::kLen, "TypeProto.Map"));
        t = ir::TypeInfo{};
        t.kind = ir::TypeInfo::Kind::kMap;
        TRY(read_map_type(f.data, f.size, ctx, &t));
        break;
      }
      default: break;  // denotation, opaque types
    }
  }
  return t;
}

Result<ir::ValueInfo> read_value_info(const uint8_t* data, size_t size, ReadContext& ctx) {
  WireReader r(data, size, "ValueInfoProto");
  ir::ValueInfo v;
  Field f;
  while (!r.at_end()) {
    TRY(r.next(&f));
    if (f.number == value_info_proto::kName) {
      ASSIGN_OR_RETURN(v.name, wire::as_string(f, "ValueInfoProto.name"));
    } else if (f.number == value_info_proto::kType) {
      TRY(wire::expect_type(f, WireType::kLen, "ValueInfoProto.type"));
      auto type = read_type(f.data, f.size, ctx);
      if (!type) return type.status().with_context("value '" + v.name + "': ");
      v.type = std::move(type).value();
    } else if (f.number == value_info_proto::kDocString) {
      ASSIGN_OR_RETURN(v.doc, wire::as_string(f, "ValueInfoProto.doc_string"));
    }
  }
  return v;
}

}  // namespace twinrt::onnx
