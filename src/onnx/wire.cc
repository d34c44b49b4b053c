#include "onnx/wire.h"

#include <bit>
#include <cstring>

namespace twinrt::onnx::wire {

// Raw little-endian fixed-width values are copied byte for byte; x86-64 and WebAssembly
// are both little-endian, the only targets twinrt builds for.
static_assert(std::endian::native == std::endian::little, "twinrt assumes a little-endian host");

const char* wire_type_name(WireType t) {
  switch (t) {
    case WireType::kVarint: return "varint";
    case WireType::kFixed64: return "fixed64";
    case WireType::kLen: return "length-delimited";
    case WireType::kStartGroup: return "start-group";
    case WireType::kEndGroup: return "end-group";
    case WireType::kFixed32: return "fixed32";
  }
  return "invalid";
}

bool read_varint(const uint8_t** p, const uint8_t* end, uint64_t* out) {
  uint64_t v = 0;
  const uint8_t* q = *p;
  for (int shift = 0; shift < 70; shift += 7) {
    if (q >= end) return false;
    uint8_t b = *q++;
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *p = q;
      *out = v;
      return true;
    }
  }
  return false;  // more than 10 bytes
}

Status WireReader::error(const std::string& what) const {
  return invalid_model(std::string(message_) + ": " + what + " at byte " +
                       std::to_string(p_ - begin_));
}

Status WireReader::next(Field* f) {
  uint64_t tag = 0;
  if (!read_varint(&p_, end_, &tag)) return error("truncated or overlong field tag");
  uint64_t number = tag >> 3;
  if (number == 0 || number > 0x1fffffff) return error("invalid field number " + std::to_string(number));
  f->number = static_cast<uint32_t>(number);
  f->type = static_cast<WireType>(tag & 7);
  f->data = nullptr;
  f->size = 0;
  f->scalar = 0;
  const std::string field = "field " + std::to_string(number);
  switch (f->type) {
    case WireType::kVarint:
      if (!read_varint(&p_, end_, &f->scalar)) return error(field + ": truncated or overlong varint");
      return Status::ok();
    case WireType::kFixed64:
    case WireType::kFixed32: {
      size_t n = f->type == WireType::kFixed64 ? 8 : 4;
      if (static_cast<size_t>(end_ - p_) < n) return error(field + ": truncated fixed-width value");
      uint64_t v = 0;
      std::memcpy(&v, p_, n);
      f->scalar = v;
      p_ += n;
      return Status::ok();
    }
    case WireType::kLen: {
      uint64_t len = 0;
      if (!read_varint(&p_, end_, &len)) return error(field + ": truncated length");
      if (len > static_cast<uint64_t>(end_ - p_))
        return error(field + ": length " + std::to_string(len) + " runs past the end (" +
                     std::to_string(end_ - p_) + " bytes left)");
      f->data = p_;
      f->size = static_cast<size_t>(len);
      p_ += len;
      return Status::ok();
    }
    case WireType::kStartGroup:
    case WireType::kEndGroup:
      return error(field + ": groups are not used by ONNX");
  }
  return error(field + ": invalid wire type " + std::to_string(tag & 7));
}

Status expect_type(const Field& f, WireType type, const char* name) {
  if (f.type == type) return Status::ok();
  return invalid_model(std::string(name) + ": expected " + wire_type_name(type) + " encoding, got " +
                       wire_type_name(f.type));
}

Result<uint64_t> as_uint64(const Field& f, const char* name) {
  TRY(expect_type(f, WireType::kVarint, name));
  return f.scalar;
}

Result<int64_t> as_int64(const Field& f, const char* name) {
  TRY(expect_type(f, WireType::kVarint, name));
  return static_cast<int64_t>(f.scalar);
}

Result<int32_t> as_int32(const Field& f, const char* name) {
  TRY(expect_type(f, WireType::kVarint, name));
  return static_cast<int32_t>(static_cast<uint32_t>(f.scalar));  // protobuf int32 truncation
}

Result<float> as_float(const Field& f, const char* name) {
  TRY(expect_type(f, WireType::kFixed32, name));
  // __builtin_bit_cast: emscripten 3.1.6's libc++ has no std::bit_cast.
  return __builtin_bit_cast(float, static_cast<uint32_t>(f.scalar));
}

Result<std::string_view> as_bytes(const Field& f, const char* name) {
  TRY(expect_type(f, WireType::kLen, name));
  return std::string_view(reinterpret_cast<const char*>(f.data), f.size);
}

Result<std::string> as_string(const Field& f, const char* name) {
  ASSIGN_OR_RETURN(std::string_view v, as_bytes(f, name));
  return std::string(v);
}

namespace {

// Decodes one element of wire type `W` from [*p, end) into `out`, advancing `*p`.
template <class T, WireType W>
bool decode_one(const uint8_t** p, const uint8_t* end, T* out) {
  if constexpr (W == WireType::kVarint) {
    uint64_t v = 0;
    if (!read_varint(p, end, &v)) return false;
    *out = static_cast<T>(v);
  } else {
    if (static_cast<size_t>(end - *p) < sizeof(T)) return false;
    std::memcpy(out, *p, sizeof(T));
    *p += sizeof(T);
  }
  return true;
}

template <class T, WireType W>
Status append_repeated(const Field& f, const char* name, std::vector<T>* out) {
  if (f.type == W) {
    T v{};
    if constexpr (W == WireType::kVarint) v = static_cast<T>(f.scalar);
    else if constexpr (sizeof(T) == 4) v = __builtin_bit_cast(T, static_cast<uint32_t>(f.scalar));
    else v = __builtin_bit_cast(T, f.scalar);
    out->push_back(v);
    return Status::ok();
  }
  if (f.type != WireType::kLen)
    return invalid_model(std::string(name) + ": expected packed or " + wire_type_name(W) +
                         " encoding, got " + wire_type_name(f.type));
  const uint8_t* p = f.data;
  const uint8_t* end = f.data + f.size;
  if constexpr (W != WireType::kVarint) {
    if (f.size % sizeof(T) != 0)
      return invalid_model(std::string(name) + ": packed size " + std::to_string(f.size) +
                           " is not a multiple of " + std::to_string(sizeof(T)));
    out->reserve(out->size() + f.size / sizeof(T));
  }
  while (p < end) {
    T v{};
    if (!decode_one<T, W>(&p, end, &v))
      return invalid_model(std::string(name) + ": truncated packed element");
    out->push_back(v);
  }
  return Status::ok();
}

}  // namespace

Status append_int64s(const Field& f, const char* name, std::vector<int64_t>* out) {
  return append_repeated<int64_t, WireType::kVarint>(f, name, out);
}
Status append_uint64s(const Field& f, const char* name, std::vector<uint64_t>* out) {
  return append_repeated<uint64_t, WireType::kVarint>(f, name, out);
}
Status append_int32s(const Field& f, const char* name, std::vector<int32_t>* out) {
  // int32 varints are sign-extended to 64 bits on the wire; keep the low 32 bits.
  std::vector<int64_t> wide;
  TRY(append_int64s(f, name, &wide));
  out->reserve(out->size() + wide.size());
  for (int64_t v : wide) out->push_back(static_cast<int32_t>(static_cast<uint32_t>(v)));
  return Status::ok();
}
Status append_floats(const Field& f, const char* name, std::vector<float>* out) {
  return append_repeated<float, WireType::kFixed32>(f, name, out);
}
Status append_doubles(const Field& f, const char* name, std::vector<double>* out) {
  return append_repeated<double, WireType::kFixed64>(f, name, out);
}

}  // namespace twinrt::onnx::wire
