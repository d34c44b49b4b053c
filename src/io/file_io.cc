#include "io/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "io/regular_file.h"

namespace twinrt::io {
namespace {

std::string errno_text() { return std::strerror(errno); }

Status write_all(int fd, std::string_view bytes, const std::string& path) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return io_error("cannot write '" + path + "': " + errno_text());
    done += static_cast<size_t>(n);
  }
  return Status::ok();
}

// Writes straight into an existing target that is not a regular file (a device such as
// /dev/stdout or /dev/full, a FIFO, a symlink): replacing it by rename would destroy it.
Status write_in_place(const std::string& path, std::string_view bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return io_error("cannot open '" + path + "' for writing: " + errno_text());
  Status st = write_all(fd, bytes, path);
  if (::close(fd) != 0 && st) st = io_error("cannot write '" + path + "': " + errno_text());
  return st;
}

// A new file next to the target, renamed over it only once complete, so a failed write
// never leaves half a file where a good one was.
Status write_then_rename(const std::string& path, std::string_view bytes) {
  const std::string tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return io_error("cannot create '" + tmp + "': " + errno_text());
  Status st = write_all(fd, bytes, tmp);
  if (::close(fd) != 0 && st) st = io_error("cannot write '" + tmp + "': " + errno_text());
  if (st && std::rename(tmp.c_str(), path.c_str()) != 0)
    st = io_error("cannot rename '" + tmp + "' to '" + path + "': " + errno_text());
  if (!st) std::remove(tmp.c_str());
  return st;
}

}  // namespace

Result<std::string> read_file_bytes(const std::string& path, const ResourceLimits& limits) {
  ASSIGN_OR_RETURN(RegularFile file, RegularFile::open(path));
  TRY(check_tensor_bytes(file.size(), "'" + path + "'", limits));
  TRY(check_memory_bytes(0, file.size(), "'" + path + "'", limits));
  return file.read_all();
}

Status write_file_bytes(const std::string& path, std::string_view bytes) {
  if (path == "-") {
    std::fflush(stdout);  // keep what printf buffered before these bytes
    return write_all(STDOUT_FILENO, bytes, "standard output");
  }
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return io_error("cannot write '" + path + "': it is a directory");
    return write_in_place(path, bytes);
  }
  return write_then_rename(path, bytes);
}

int64_t file_size_or_minus_one(const std::string& path) {
  struct stat st{};
  return stat(path.c_str(), &st) == 0 ? static_cast<int64_t>(st.st_size) : -1;
}

}  // namespace twinrt::io
