#include "onnx/tensor_reader.h"

#include "onnx/file_bytes.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "ir/bool_values.h"
#include "ir/memory_budget.h"
#include "onnx/external_data.h"
#include "onnx/file_bytes.h"
#include "onnx/proto_fields.h"
#include "onnx/wire.h"

namespace twinrt::onnx {
namespace {

using wire::Field;
using wire::WireReader;

constexpr uint64_t kMaxTensorBytes = uint64_t{1} << 40;  // matches Tensor::create's cap

// Every field of a TensorProto, read before the tensor is built so that checks can
// consider them together (and errors can name the tensor whatever the field order).
struct TensorFields {
  std::string name;
  std::vector<int64_t> dims;
  int32_t data_type = 0;
  bool has_raw = false;
  std::string_view raw;
  std::vector<float> floats;
  std::vector<int32_t> int32s;
  std::vector<int64_t> int64s;
  std::vector<uint64_t> uint64s;
  std::vector<double> doubles;
  std::vector<std::string_view> strings;
  std::vector<std::pair<std::string, std::string>> external_data;
  int32_t data_location = 0;  // 0 DEFAULT, 1 EXTERNAL
};

Status read_tensor_fields(const uint8_t* data, size_t size, TensorFields* t) {
  WireReader r(data, size, "TensorProto");
  Field f;
  while (!r.at_end()) {
    TRY(r.next(&f));
    switch (f.number) {
      case tensor_proto::kDims: TRY(wire::append_int64s(f, "TensorProto.dims", &t->dims)); break;
      case tensor_proto::kDataType: {
        ASSIGN_OR_RETURN(t->data_type, wire::as_int32(f, "TensorProto.data_type"));
        break;
      }
      case tensor_proto::kSegment:
        return not_implemented("TensorProto.segment: segmented tensors are not supported");
      case tensor_proto::kFloatData:
        TRY(wire::append_floats(f, "TensorProto.float_data", &t->floats));
        break;
      case tensor_proto::kInt32Data:
        TRY(wire::append_int32s(f, "TensorProto.int32_data", &t->int32s));
        break;
      case tensor_proto::kStringData: {
        ASSIGN_OR_RETURN(std::string_view s, wire::as_bytes(f, "TensorProto.string_data"));
        t->strings.push_back(s);
        break;
      }
      case tensor_proto::kInt64Data:
        TRY(wire::append_int64s(f, "TensorProto.int64_data", &t->int64s));
        break;
      case tensor_proto::kName: {
        ASSIGN_OR_RETURN(t->name, wire::as_string(f, "TensorProto.name"));
        break;
      }
      case tensor_proto::kRawData: {
        ASSIGN_OR_RETURN(t->raw, wire::as_bytes(f, "TensorProto.raw_data"));
        t->has_raw = true;
        break;
      }
      case tensor_proto::kDoubleData:
        TRY(wire::append_doubles(f, "TensorProto.double_data", &t->doubles));
        break;
      case tensor_proto::kUint64Data:
        TRY(wire::append_uint64s(f, "TensorProto.uint64_data", &t->uint64s));
        break;
      case tensor_proto::kExternalData: {
        ASSIGN_OR_RETURN(auto entry, read_string_entry(f, "TensorProto.external_data"));
        t->external_data.push_back(std::move(entry));
        break;
      }
      case tensor_proto::kDataLocation: {
        ASSIGN_OR_RETURN(t->data_location, wire::as_int32(f, "TensorProto.data_location"));
        break;
      }
      default: break;  // doc_string and fields newer than this reader
    }
  }
  return Status::ok();
}

// The typed field that holds elements of `dtype`, as its name and element count, and the
// number of field elements each tensor element takes (2 for complex numbers).
struct TypedSource {
  const char* field = nullptr;
  size_t count = 0;
  size_t per_element = 1;
};

TypedSource typed_source(const TensorFields& t, DataType dtype) {
  switch (dtype) {
    case DataType::kFloat: return {"float_data", t.floats.size(), 1};
    case DataType::kComplex64: return {"float_data", t.floats.size(), 2};
    case DataType::kDouble: return {"double_data", t.doubles.size(), 1};
    case DataType::kComplex128: return {"double_data", t.doubles.size(), 2};
    case DataType::kInt64: return {"int64_data", t.int64s.size(), 1};
    case DataType::kUInt32:
    case DataType::kUInt64: return {"uint64_data", t.uint64s.size(), 1};
    case DataType::kString: return {"string_data", t.strings.size(), 1};
    default: return {"int32_data", t.int32s.size(), 1};  // 8/16/32-bit ints, bool, halfs
  }
}

size_t typed_values_present(const TensorFields& t) {
  return t.floats.size() + t.int32s.size() + t.int64s.size() + t.uint64s.size() +
         t.doubles.size() + t.strings.size();
}

template <class Dst, class Src>
void convert_into(Tensor& out, const std::vector<Src>& src) {
  auto* dst = static_cast<Dst*>(out.raw());
  for (size_t i = 0; i < src.size(); ++i) dst[i] = static_cast<Dst>(src[i]);
}

// Copies the typed field into `out` (whose element count was already checked).
void fill_from_typed(const TensorFields& t, Tensor& out) {
  switch (out.dtype()) {
    case DataType::kFloat:
    case DataType::kComplex64: convert_into<float>(out, t.floats); break;
    case DataType::kDouble:
    case DataType::kComplex128: convert_into<double>(out, t.doubles); break;
    case DataType::kInt64: convert_into<int64_t>(out, t.int64s); break;
    case DataType::kUInt64: convert_into<uint64_t>(out, t.uint64s); break;
    case DataType::kUInt32: convert_into<uint32_t>(out, t.uint64s); break;
    case DataType::kInt32: convert_into<int32_t>(out, t.int32s); break;
    case DataType::kInt16: convert_into<int16_t>(out, t.int32s); break;
    case DataType::kInt8: convert_into<int8_t>(out, t.int32s); break;
    case DataType::kUInt16:
    case DataType::kFloat16:
    case DataType::kBFloat16: convert_into<uint16_t>(out, t.int32s); break;  // bit patterns
    case DataType::kUInt8: convert_into<uint8_t>(out, t.int32s); break;
    case DataType::kBool: {
      auto* dst = out.data<bool>();
      for (size_t i = 0; i < t.int32s.size(); ++i) dst[i] = t.int32s[i] != 0;
      break;
    }
    case DataType::kString: {
      auto* dst = out.data<std::string>();
      for (size_t i = 0; i < t.strings.size(); ++i) dst[i] = std::string(t.strings[i]);
      break;
    }
    case DataType::kUndefined: break;
  }
}

constexpr size_t kOwnMappingBytes = 64 * 1024;
constexpr size_t kCopyChunk = 1 << 20;  // a multiple of the page size

// Views `bytes` (owned by `owner`) when it is suitably aligned, else copies them.
Result<Tensor> tensor_over_bytes(DataType dtype, std::vector<int64_t> dims, const std::byte* bytes,
                                 size_t nbytes, const std::shared_ptr<Storage>& owner) {
  size_t align = std::min<size_t>(dtype_size(dtype), 8);
  bool aligned = reinterpret_cast<uintptr_t>(bytes) % align == 0;
  // Bools are copied so that bytes other than 0 and 1 can be normalised.
  const bool is_bool = dtype == DataType::kBool;
  if (owner && owner->data() && aligned && !is_bool && bytes >= owner->data() &&
      bytes + nbytes <= owner->data() + owner->size())
    return Tensor::view(dtype, std::move(dims), owner, static_cast<size_t>(bytes - owner->data()));
  // A large misaligned tensor in a file read here: copied into a mapping of its own (its
  // pages can be released later, like the file's), and the file's copy released now, so
  // that loading does not hold the weights twice.
  auto* file = owner && owner->kind() == FileBytes::kind_tag() ? static_cast<FileBytes*>(owner.get()) : nullptr;
  if (file && !is_bool && nbytes >= kOwnMappingBytes && bytes >= file->data() &&
      bytes + nbytes <= file->data() + file->size())
    if (auto copy = CopiedBytes::create(nbytes)) {
      // Chunk by chunk, releasing what was copied: never the whole tensor twice at once.
      const size_t from = static_cast<size_t>(bytes - file->data());
      for (size_t done = 0; done < nbytes;) {
        const size_t n = std::min(kCopyChunk, nbytes - done);
        std::memcpy(copy->data() + done, bytes + done, n);
        const size_t released_from = done == 0 ? from : (from + done) / kCopyChunk * kCopyChunk;
        done += n;
        file->release(released_from, from + done - released_from);
      }
      return Tensor::view(dtype, std::move(dims), copy, 0);
    }
  ASSIGN_OR_RETURN(Tensor t, Tensor::create_for_overwrite(dtype, std::move(dims)));
  if (nbytes) std::memcpy(t.raw(), bytes, nbytes);
  if (is_bool) ir::normalise_bool_bytes(t.raw(), nbytes);
  return t;
}

Result<Tensor> build_tensor(const TensorFields& t, ReadContext& ctx) {
  if (!dtype_is_valid(t.data_type))
    return invalid_model("data_type " + std::to_string(t.data_type) + " is not a known tensor type");
  const auto dtype = static_cast<DataType>(t.data_type);
  for (int64_t d : t.dims)
    if (d < 0) return invalid_model("negative dimension in dims " + shape_to_string(t.dims));
  const int64_t numel = shape_numel(t.dims);
  const uint64_t esize = dtype_size(dtype);
  if (numel < 0 || static_cast<uint64_t>(numel) > kMaxTensorBytes / esize)
    return invalid_model("dims " + shape_to_string(t.dims) + " are too large");
  const size_t nbytes = static_cast<size_t>(numel) * esize;
  TRY(charge_tensor(ctx, nbytes, std::string(dtype_name(dtype)) + shape_to_string(t.dims)));
  TRY(check_empty_extent(esize, t.dims, std::string(dtype_name(dtype)) + shape_to_string(t.dims), ctx.options.limits));

  if (t.data_location == tensor_proto::kLocationExternal) {
    if (dtype == DataType::kString)
      return not_implemented("string tensors cannot use external data");
    return read_external_tensor(t.external_data, dtype, t.dims, nbytes, ctx);
  }
  if (t.data_location != tensor_proto::kLocationDefault)
    return invalid_model("data_location " + std::to_string(t.data_location) + " is not DEFAULT or EXTERNAL");

  if (t.has_raw) {
    if (dtype == DataType::kString) return invalid_model("string tensors cannot use raw_data");
    if (typed_values_present(t)) return invalid_model("has both raw_data and typed data fields");
    if (t.raw.size() != nbytes)
      return invalid_model("raw_data holds " + std::to_string(t.raw.size()) + " bytes, but dims " +
                           shape_to_string(t.dims) + " of " + dtype_name(dtype) + " need " +
                           std::to_string(nbytes));
    return tensor_over_bytes(dtype, t.dims, reinterpret_cast<const std::byte*>(t.raw.data()),
                             nbytes, ctx.keepalive);
  }

  TypedSource src = typed_source(t, dtype);
  if (typed_values_present(t) != src.count)
    return invalid_model(std::string("data of a ") + dtype_name(dtype) + " tensor must be in " +
                         src.field);
  if (src.count != static_cast<size_t>(numel) * src.per_element)
    return invalid_model(std::string(src.field) + " holds " + std::to_string(src.count) +
                         " values, but dims " + shape_to_string(t.dims) + " need " +
                         std::to_string(static_cast<size_t>(numel) * src.per_element));
  ASSIGN_OR_RETURN(Tensor out, Tensor::create(dtype, t.dims));
  fill_from_typed(t, out);
  return out;
}

std::string tensor_label(const std::string& name) {
  return name.empty() ? "tensor: " : "tensor '" + name + "': ";
}

}  // namespace

Result<std::pair<std::string, std::string>> read_string_entry(const Field& f, const char* name) {
  ASSIGN_OR_RETURN(std::string_view bytes, wire::as_bytes(f, name));
  WireReader r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "StringStringEntryProto");
  std::pair<std::string, std::string> entry;
  Field e;
  while (!r.at_end()) {
    TRY(r.next(&e));
    if (e.number == string_string_entry_proto::kKey) {
      ASSIGN_OR_RETURN(entry.first, wire::as_string(e, "StringStringEntryProto.key"));
    } else if (e.number == string_string_entry_proto::kValue) {
      ASSIGN_OR_RETURN(entry.second, wire::as_string(e, "StringStringEntryProto.value"));
    }
  }
  return entry;
}

uint64_t declared_tensor_bytes(const uint8_t* data, size_t size, bool sparse) {
  const uint32_t dims_field = sparse ? uint32_t{sparse_tensor_proto::kDims} : uint32_t{tensor_proto::kDims};
  WireReader r(data, size, "TensorProto");
  Field f;
  std::vector<int64_t> dims;
  uint64_t esize = 0;
  while (!r.at_end()) {
    if (!r.next(&f)) return 0;
    if (f.number == dims_field) {
      if (!wire::append_int64s(f, "dims", &dims)) return 0;
    } else if (sparse && f.number == sparse_tensor_proto::kValues && f.type == wire::WireType::kLen) {
      WireReader values(f.data, f.size, "TensorProto");
      Field v;
      while (!values.at_end() && values.next(&v))
        if (v.number == tensor_proto::kDataType && v.type == wire::WireType::kVarint && dtype_is_valid(int32_t(v.scalar)))
          esize = dtype_size(static_cast<DataType>(v.scalar));
    } else if (!sparse && f.number == tensor_proto::kDataType && f.type == wire::WireType::kVarint &&
               dtype_is_valid(int32_t(f.scalar))) {
      esize = dtype_size(static_cast<DataType>(f.scalar));
    }
  }
  uint64_t bytes = esize;
  for (int64_t d : dims) {
    if (d < 0) return 0;
    if (d != 0 && bytes > UINT64_MAX / static_cast<uint64_t>(d)) return UINT64_MAX;
    bytes *= static_cast<uint64_t>(d);
  }
  return bytes;
}

Result<Tensor> read_tensor(const uint8_t* data, size_t size, ReadContext& ctx, std::string* name) {
  NestingGuard guard(ctx);
  TRY(guard.check("TensorProto"));
  TensorFields fields;
  Status st = read_tensor_fields(data, size, &fields);
  if (!st) return st.with_context(tensor_label(fields.name));
  auto t = build_tensor(fields, ctx);
  if (!t) return t.status().with_context(tensor_label(fields.name));
  if (name) *name = std::move(fields.name);
  return t;
}

}  // namespace twinrt::onnx
