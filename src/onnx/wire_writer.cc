#include "onnx/wire_writer.h"

#include <cstring>

namespace twinrt::onnx::wire {

void WireWriter::varint(uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<char>(v));
}

void WireWriter::tag(uint32_t number, uint32_t wire_type) {
  varint((static_cast<uint64_t>(number) << 3) | wire_type);
}

void WireWriter::varint_field(uint32_t number, uint64_t value) {
  tag(number, 0);
  varint(value);
}

// __builtin_bit_cast: emscripten 3.1.6's libc++ has no std::bit_cast.
void WireWriter::float_field(uint32_t number, float value) {
  tag(number, 5);
  uint32_t bits = __builtin_bit_cast(uint32_t, value);
  char b[4];
  std::memcpy(b, &bits, 4);  // little-endian host (see wire.cc)
  out_.append(b, 4);
}

void WireWriter::double_field(uint32_t number, double value) {
  tag(number, 1);
  uint64_t bits = __builtin_bit_cast(uint64_t, value);
  char b[8];
  std::memcpy(b, &bits, 8);
  out_.append(b, 8);
}

void WireWriter::bytes_field(uint32_t number, std::string_view bytes) {
  tag(number, 2);
  varint(bytes.size());
  out_.append(bytes);
}

void WireWriter::packed_int64s(uint32_t number, const std::vector<int64_t>& values) {
  if (values.empty()) return;
  WireWriter payload;
  for (int64_t v : values) payload.varint(static_cast<uint64_t>(v));
  bytes_field(number, payload.bytes());
}

void WireWriter::packed_floats(uint32_t number, const std::vector<float>& values) {
  if (values.empty()) return;
  bytes_field(number, std::string_view(reinterpret_cast<const char*>(values.data()),
                                       values.size() * sizeof(float)));
}

}  // namespace twinrt::onnx::wire
