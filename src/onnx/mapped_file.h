// A read-only file mapped into memory as a tensor Storage, so initializers can point into
// it (zero copy) and keep the mapping alive for as long as any tensor uses it.
#pragma once

#include <memory>
#include <string>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::onnx {

class MappedFile final : public Storage {
 public:
  // Maps the whole file privately: pages are copy-on-write, so a kernel that writes
  // into a weight by mistake changes only its own copy, never the file.
  static Result<std::shared_ptr<MappedFile>> open(const std::string& path);
  ~MappedFile() override;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::byte* data() override { return data_; }
  size_t size() const override { return size_; }

 private:
  MappedFile(std::byte* data, size_t size) : data_(data), size_(size) {}
  std::byte* data_;
  size_t size_;
};

}  // namespace twinrt::onnx
