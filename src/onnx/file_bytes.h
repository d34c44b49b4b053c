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

// Bytes whose whole pages can be given back to the system while the storage lives: weights
// a session keeps only in another form (packed panels). Reading released bytes faults, so
// only the owner of every view of them may release them.
class ReleasableBytes : public Storage {
 public:
  ReleasableBytes(const ReleasableBytes&) = delete;
  ReleasableBytes& operator=(const ReleasableBytes&) = delete;

  std::byte* data() override { return data_; }
  size_t size() const override { return size_; }
  // Releases the whole pages inside [offset, offset + bytes); returns the bytes released
  // (0 where the bytes are not a mapping of their own, or the platform cannot, e.g.
  // WebAssembly).
  size_t release(size_t offset, size_t bytes) override;
  // Bytes released so far.
  size_t released() const { return released_; }

 protected:
  ReleasableBytes(std::byte* data, size_t size, bool mapped) : data_(data), size_(size), mapped_(mapped) {}
  std::byte* data_;
  size_t size_;
  bool mapped_;  // data_ is an anonymous mapping of its own (pages can be released)

 private:
  size_t released_ = 0;
};

class FileBytes final : public ReleasableBytes {
 public:
  // Reads the whole regular file (page aligned where it can be mapped, else 64-byte
  // aligned, so in-place views suit SIMD kernels). A file larger than
  // limits.max_memory_bytes is refused before it is read.
  static Result<std::shared_ptr<FileBytes>> read(const std::string& path, const ResourceLimits& limits = {});
  ~FileBytes() override;
  static const void* kind_tag() {
    static const char tag = 0;
    return &tag;
  }
  const void* kind() const override { return kind_tag(); }

 private:
  using ReleasableBytes::ReleasableBytes;
};

// An initializer's bytes copied out of the file (raw_data not aligned for its type) into a
// mapping of their own, so that they can be released like the file's.
class CopiedBytes final : public ReleasableBytes {
 public:
  // Null where mappings are not available or refused (then the copy goes to the heap).
  static std::shared_ptr<CopiedBytes> create(size_t bytes);
  ~CopiedBytes() override;

 private:
  using ReleasableBytes::ReleasableBytes;
};

}  // namespace twinrt::onnx
