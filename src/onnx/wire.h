// Bounds-checked protobuf wire-format primitives. A WireReader walks the fields of one
// message held in a byte range; every varint, length and fixed-width value is checked
// against the end of that range, so hostile input yields a Status, never an OOB read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "twinrt/status.h"

namespace twinrt::onnx::wire {

enum class WireType : uint8_t {
  kVarint = 0,
  kFixed64 = 1,
  kLen = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};
const char* wire_type_name(WireType t);

// One decoded field. For kLen, `data`/`size` is the payload (inside the reader's range).
struct Field {
  uint32_t number = 0;
  WireType type = WireType::kVarint;
  uint64_t scalar = 0;  // kVarint, kFixed32, kFixed64
  const uint8_t* data = nullptr;
  size_t size = 0;
};

// Reads a varint at `*p` (not past `end`); advances `*p`. False when truncated or > 10 bytes.
bool read_varint(const uint8_t** p, const uint8_t* end, uint64_t* out);

class WireReader {
 public:
  // `message` names the message type for error text ("TensorProto").
  WireReader(const uint8_t* data, size_t size, const char* message)
      : begin_(data), p_(data), end_(data + size), message_(message) {}

  bool at_end() const { return p_ >= end_; }
  // Decodes the next field; fails on a bad tag, truncated value or unsupported group.
  Status next(Field* f);

 private:
  Status error(const std::string& what) const;

  const uint8_t* begin_;
  const uint8_t* p_;
  const uint8_t* end_;
  const char* message_;
};

// Typed views of a field. `name` is the qualified field name ("TensorProto.dims") that
// error messages cite.
Status expect_type(const Field& f, WireType type, const char* name);
Result<int64_t> as_int64(const Field& f, const char* name);
Result<uint64_t> as_uint64(const Field& f, const char* name);
Result<int32_t> as_int32(const Field& f, const char* name);
Result<float> as_float(const Field& f, const char* name);
Result<std::string_view> as_bytes(const Field& f, const char* name);
Result<std::string> as_string(const Field& f, const char* name);

// Repeated scalars, accepted both packed (one kLen field) and unpacked (one field each).
Status append_int64s(const Field& f, const char* name, std::vector<int64_t>* out);
Status append_uint64s(const Field& f, const char* name, std::vector<uint64_t>* out);
Status append_int32s(const Field& f, const char* name, std::vector<int32_t>* out);
Status append_floats(const Field& f, const char* name, std::vector<float>* out);
Status append_doubles(const Field& f, const char* name, std::vector<double>* out);

}  // namespace twinrt::onnx::wire
