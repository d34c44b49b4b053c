#include "io/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace twinrt::io {
namespace {

Status errno_error(const std::string& what, const std::string& path) {
  return io_error("cannot " + what + " '" + path + "': " + std::strerror(errno));
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

}  // namespace

Result<RegularFile> RegularFile::open(const std::string& path, const std::string& what) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return errno_error("open " + what, path);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    Status s = errno_error("stat " + what, path);
    ::close(fd);
    return s;
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return io_error(what + " '" + path + "' is " + kind_of(st.st_mode) +
                    ", not a regular file (twinrt reads only regular files)");
  }
  return RegularFile(fd, static_cast<uint64_t>(st.st_size), path);
}

RegularFile::RegularFile(RegularFile&& other) noexcept
    : fd_(other.fd_), size_(other.size_), path_(std::move(other.path_)) {
  other.fd_ = -1;
}

RegularFile& RegularFile::operator=(RegularFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    size_ = other.size_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
  }
  return *this;
}

RegularFile::~RegularFile() {
  if (fd_ >= 0) ::close(fd_);
}

Status RegularFile::read_at(uint64_t offset, void* dst, size_t length) const {
  auto* out = static_cast<char*>(dst);
  size_t done = 0;
  while (done < length) {
    ssize_t n = ::pread(fd_, out + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno_error("read", path_);
    if (n == 0) return io_error("'" + path_ + "' shrank while being read");
    done += static_cast<size_t>(n);
  }
  return Status::ok();
}

Result<std::string> RegularFile::read_all() const {
  if (size_ > SIZE_MAX / 2) return out_of_memory("'" + path_ + "' is too large to read");
  std::string bytes(static_cast<size_t>(size_), '\0');
  TRY(read_at(0, bytes.data(), bytes.size()));
  return bytes;
}

}  // namespace twinrt::io
