#include "onnx/file_bytes.h"

#include <cstdlib>

#include "onnx/loader.h"

namespace twinrt::onnx {

Result<std::shared_ptr<FileBytes>> FileBytes::read(const std::string& path, const ResourceLimits& limits) {
  ASSIGN_OR_RETURN(io::RegularFile file, io::RegularFile::open(path, "model"));
  TRY(check_memory_bytes(0, file.size(), "model file '" + path + "'", limits));
  if (file.size() > SIZE_MAX / 2) return out_of_memory("'" + path + "' is too large to read");
  const size_t size = static_cast<size_t>(file.size());
  if (size == 0) return std::shared_ptr<FileBytes>(new FileBytes(nullptr, 0));
  constexpr size_t kAlign = 64;
  auto* p = static_cast<std::byte*>(std::aligned_alloc(kAlign, (size + kAlign - 1) / kAlign * kAlign));
  if (!p) return out_of_memory("cannot allocate " + std::to_string(size) + " bytes for '" + path + "'");
  std::shared_ptr<FileBytes> bytes(new FileBytes(p, size));
  TRY(file.read_at(0, p, size));
  return bytes;
}

FileBytes::~FileBytes() { std::free(data_); }

Result<std::string> read_file(const std::string& path) {
  ASSIGN_OR_RETURN(io::RegularFile file, io::RegularFile::open(path));
  return file.read_all();
}

}  // namespace twinrt::onnx
