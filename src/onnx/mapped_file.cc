#include "onnx/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "onnx/loader.h"

namespace twinrt::onnx {
namespace {

Status errno_error(const std::string& what, const std::string& path) {
  return io_error("cannot " + what + " '" + path + "': " + std::strerror(errno));
}

// Closes the descriptor on every path out of a function.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() { if (fd_ >= 0) ::close(fd_); }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

Result<size_t> regular_file_size(int fd, const std::string& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return errno_error("stat", path);
  if (!S_ISREG(st.st_mode)) return io_error("'" + path + "' is not a regular file");
  return static_cast<size_t>(st.st_size);
}

}  // namespace

Result<std::shared_ptr<MappedFile>> MappedFile::open(const std::string& path) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return errno_error("open", path);
  ASSIGN_OR_RETURN(size_t size, regular_file_size(fd.get(), path));
  if (size == 0) return std::shared_ptr<MappedFile>(new MappedFile(nullptr, 0));
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd.get(), 0);
  if (p == MAP_FAILED) return errno_error("memory-map", path);
  return std::shared_ptr<MappedFile>(new MappedFile(static_cast<std::byte*>(p), size));
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(data_, size_);
}

Result<std::string> read_file(const std::string& path) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return errno_error("open", path);
  ASSIGN_OR_RETURN(size_t size, regular_file_size(fd.get(), path));
  std::string out(size, '\0');
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::read(fd.get(), out.data() + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno_error("read", path);
    if (n == 0) return io_error("'" + path + "' shrank while being read");
    done += static_cast<size_t>(n);
  }
  return out;
}

}  // namespace twinrt::onnx
