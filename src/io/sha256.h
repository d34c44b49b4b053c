// SHA-256 (FIPS 180-4), twinrt's own implementation: `inspect` hashes model files and
// their external data so a model card pins exactly which bytes were tested.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "twinrt/status.h"

namespace twinrt::io {

// Incremental hasher: update() any number of times, then digest() once.
class Sha256 {
 public:
  Sha256();
  void update(const void* data, size_t size);
  void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }
  std::array<uint8_t, 32> digest();  // finishes the hash; the object is spent afterwards
  std::string hex_digest();          // lower-case, 64 characters

 private:
  void compress(const uint8_t* block);
  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

std::string sha256_hex(std::string_view bytes);
// Hashes a file in chunks (models may be larger than memory is comfortable with).
Result<std::string> sha256_file_hex(const std::string& path);

}  // namespace twinrt::io
