// The one way twinrt opens a file it reads (models, external data, inputs, images,
// policies): regular files only. A FIFO, device, socket or directory — directly or through
// a symlink — is refused before a byte is read, so `/dev/zero` cannot fill memory and a
// FIFO cannot hang the process (the open itself is non-blocking).
#pragma once

#include <cstdint>
#include <string>

#include "twinrt/status.h"

namespace twinrt::io {

class RegularFile {
 public:
  // `what` names the file's role in errors ("model", "external data file", "input").
  static Result<RegularFile> open(const std::string& path, const std::string& what = "file");
  RegularFile(RegularFile&& other) noexcept;
  RegularFile& operator=(RegularFile&& other) noexcept;
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;
  ~RegularFile();

  uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // Reads exactly `length` bytes at `offset`; a file that shrank since open is an error.
  Status read_at(uint64_t offset, void* dst, size_t length) const;
  // Reads the whole file (its size at open).
  Result<std::string> read_all() const;

 private:
  RegularFile(int fd, uint64_t size, std::string path) : fd_(fd), size_(size), path_(std::move(path)) {}
  int fd_ = -1;
  uint64_t size_ = 0;
  std::string path_;
};

}  // namespace twinrt::io
