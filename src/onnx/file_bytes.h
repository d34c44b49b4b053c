// A model file's bytes, read into memory the process owns, as a tensor Storage so that
// initializers can view their raw_data in place and keep the bytes alive.
//
// Why read instead of mmap: a mapping shares pages with the file, so a file replaced or
// rewritten in place changes a live session's weights silently, and a truncated file makes
// the next access die with SIGBUS. After load, nothing twinrt holds refers to the file.
#pragma once

#include <memory>
#include <string>

#include "io/regular_file.h"
#include "ir/resource_limits.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::onnx {

class FileBytes final : public Storage {
 public:
  // Reads the whole regular file (64-byte aligned, so in-place views suit SIMD kernels).
  // A file larger than limits.max_memory_bytes is refused before it is read.
  static Result<std::shared_ptr<FileBytes>> read(const std::string& path, const ResourceLimits& limits = {});
  ~FileBytes() override;
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;

  std::byte* data() override { return data_; }
  size_t size() const override { return size_; }

 private:
  FileBytes(std::byte* data, size_t size) : data_(data), size_(size) {}
  std::byte* data_;
  size_t size_;
};

}  // namespace twinrt::onnx
