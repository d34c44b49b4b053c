// Protobuf wire-format encoding: the mirror of wire.h, used to write ONNX messages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace twinrt::onnx::wire {

class WireWriter {
 public:
  void varint_field(uint32_t number, uint64_t value);
  void int64_field(uint32_t number, int64_t value) { varint_field(number, static_cast<uint64_t>(value)); }
  void float_field(uint32_t number, float value);
  void double_field(uint32_t number, double value);
  // Bytes, strings and nested messages (already encoded) alike.
  void bytes_field(uint32_t number, std::string_view bytes);
  void packed_int64s(uint32_t number, const std::vector<int64_t>& values);
  void packed_floats(uint32_t number, const std::vector<float>& values);

  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void varint(uint64_t v);
  void tag(uint32_t number, uint32_t wire_type);
  std::string out_;
};

}  // namespace twinrt::onnx::wire
