#include "onnx/graph_reader.h"
#include "onnx/proto_fields.h"
#include "onnx/tensor_reader.h"
#include "onnx/type_reader.h"
#include "onnx/wire.h"

namespace twinrt::onnx {
namespace {

using wire::Field;
using wire::WireType;
using Type = ir::Attribute::Type;

// Reads one value of a message-typed attribute field (t, g, tp, sparse_tensor or their
// repeated forms) and appends or assigns it.
Status read_message_value(const Field& f, const char* name, ReadContext& ctx, ir::Attribute* a) {
  TRY(wire::expect_type(f, WireType::kLen, name));
  switch (f.number) {
    case attribute_proto::kT: {
      ASSIGN_OR_RETURN(a->t, read_tensor(f.data, f.size, ctx));
      return Status::ok();
    }
    case attribute_proto::kSparseTensor: {
      ASSIGN_OR_RETURN(a->t, read_sparse_tensor(f.data, f.size, ctx));
      return Status::ok();
    }
    case attribute_proto::kTensors: {
      ASSIGN_OR_RETURN(Tensor t, read_tensor(f.data, f.size, ctx));
      a->tensors.push_back(std::move(t));
      return Status::ok();
    }
    case attribute_proto::kSparseTensors: {
      ASSIGN_OR_RETURN(Tensor t, read_sparse_tensor(f.data, f.size, ctx));
      a->tensors.push_back(std::move(t));
      return Status::ok();
    }
    case attribute_proto::kG: {
      ASSIGN_OR_RETURN(a->g, read_graph(f.data, f.size, ctx));
      return Status::ok();
    }
    case attribute_proto::kGraphs: {
      ASSIGN_OR_RETURN(auto g, read_graph(f.data, f.size, ctx));
      a->graphs.push_back(std::move(g));
      return Status::ok();
    }
    case attribute_proto::kTp: {
      ASSIGN_OR_RETURN(ir::TypeInfo tp, read_type(f.data, f.size, ctx));
      a->type_protos.assign(1, std::move(tp));
      return Status::ok();
    }
    case attribute_proto::kTypeProtos: {
      ASSIGN_OR_RETURN(ir::TypeInfo tp, read_type(f.data, f.size, ctx));
      a->type_protos.push_back(std::move(tp));
      return Status::ok();
    }
    default: return Status::ok();
  }
}

Status read_attribute_field(const Field& f, ReadContext& ctx, ir::Attribute* a) {
  switch (f.number) {
    case attribute_proto::kName: {
      ASSIGN_OR_RETURN(a->name, wire::as_string(f, "AttributeProto.name"));
      return Status::ok();
    }
    case attribute_proto::kRefAttrName: {
      ASSIGN_OR_RETURN(a->ref_attr_name, wire::as_string(f, "AttributeProto.ref_attr_name"));
      return Status::ok();
    }
    case attribute_proto::kType: {
      ASSIGN_OR_RETURN(int32_t type, wire::as_int32(f, "AttributeProto.type"));
      if (type < 0 || type > static_cast<int32_t>(Type::kTypeProtos))
        return invalid_model("AttributeProto.type: unknown attribute type " + std::to_string(type));
      a->type = static_cast<Type>(type);
      return Status::ok();
    }
    case attribute_proto::kF: {
      ASSIGN_OR_RETURN(a->f, wire::as_float(f, "AttributeProto.f"));
      return Status::ok();
    }
    case attribute_proto::kI: {
      ASSIGN_OR_RETURN(a->i, wire::as_int64(f, "AttributeProto.i"));
      return Status::ok();
    }
    case attribute_proto::kS: {
      ASSIGN_OR_RETURN(a->s, wire::as_string(f, "AttributeProto.s"));
      return Status::ok();
    }
    case attribute_proto::kFloats: return wire::append_floats(f, "AttributeProto.floats", &a->floats);
    case attribute_proto::kInts: return wire::append_int64s(f, "AttributeProto.ints", &a->ints);
    case attribute_proto::kStrings: {
      ASSIGN_OR_RETURN(std::string s, wire::as_string(f, "AttributeProto.strings"));
      a->strings.push_back(std::move(s));
      return Status::ok();
    }
    case attribute_proto::kT: return read_message_value(f, "AttributeProto.t", ctx, a);
    case attribute_proto::kG: return read_message_value(f, "AttributeProto.g", ctx, a);
    case attribute_proto::kTensors: return read_message_value(f, "AttributeProto.tensors", ctx, a);
    case attribute_proto::kGraphs: return read_message_value(f, "AttributeProto.graphs", ctx, a);
    case attribute_proto::kTp: return read_message_value(f, "AttributeProto.tp", ctx, a);
    case attribute_proto::kTypeProtos: return read_message_value(f, "AttributeProto.type_protos", ctx, a);
    case attribute_proto::kSparseTensor:
      return read_message_value(f, "AttributeProto.sparse_tensor", ctx, a);
    case attribute_proto::kSparseTensors:
      return read_message_value(f, "AttributeProto.sparse_tensors", ctx, a);
    default: return Status::ok();  // doc_string and newer fields
  }
}

// The attribute type that a value field implies; kUndefined for other fields. Old
// exporters (IR < 0.0.2) left AttributeProto.type unset, so the type comes from the field.
Type type_of_value_field(uint32_t field) {
  switch (field) {
    case attribute_proto::kF: return Type::kFloat;
    case attribute_proto::kI: return Type::kInt;
    case attribute_proto::kS: return Type::kString;
    case attribute_proto::kT: return Type::kTensor;
    case attribute_proto::kG: return Type::kGraph;
    case attribute_proto::kFloats: return Type::kFloats;
    case attribute_proto::kInts: return Type::kInts;
    case attribute_proto::kStrings: return Type::kStrings;
    case attribute_proto::kTensors: return Type::kTensors;
    case attribute_proto::kGraphs: return Type::kGraphs;
    case attribute_proto::kTp: return Type::kTypeProto;
    case attribute_proto::kTypeProtos: return Type::kTypeProtos;
    case attribute_proto::kSparseTensor: return Type::kSparseTensor;
    case attribute_proto::kSparseTensors: return Type::kSparseTensors;
    default: return Type::kUndefined;
  }
}

}  // namespace

Result<ir::Attribute> read_attribute(const uint8_t* data, size_t size, ReadContext& ctx) {
  NestingGuard guard(ctx);
  TRY(guard.check("AttributeProto"));
  wire::WireReader r(data, size, "AttributeProto");
  ir::Attribute a;
  Type implied = Type::kUndefined;
  Field f;
  while (!r.at_end()) {
    Status st = r.next(&f);
    if (st) st = read_attribute_field(f, ctx, &a);
    if (!st) return st.with_context(a.name.empty() ? "" : "attribute '" + a.name + "': ");
    if (implied == Type::kUndefined) implied = type_of_value_field(f.number);
  }
  if (a.type == Type::kUndefined) a.type = implied;
  return a;
}

}  // namespace twinrt::onnx
