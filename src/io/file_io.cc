#include "io/file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace twinrt::io {
namespace {

using FilePtr = std::unique_ptr<FILE, int (*)(FILE*)>;

std::string errno_text() { return std::strerror(errno); }

}  // namespace

Result<std::string> read_file_bytes(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return io_error("'" + path + "' is a directory, not a file");
  FilePtr f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return io_error("cannot open '" + path + "': " + errno_text());
  std::string bytes;
  char chunk[1 << 16];
  for (;;) {
    size_t n = std::fread(chunk, 1, sizeof(chunk), f.get());
    bytes.append(chunk, n);
    if (n < sizeof(chunk)) break;
  }
  if (std::ferror(f.get())) return io_error("error while reading '" + path + "'");
  return bytes;
}

Status write_file_bytes(const std::string& path, std::string_view bytes) {
  const std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) return io_error("cannot create '" + tmp + "': " + errno_text());
  bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  std::string why = written ? "" : errno_text();
  if (std::fclose(f) != 0 && written) {
    written = false;
    why = errno_text();
  }
  if (!written) {
    std::remove(tmp.c_str());
    return io_error("cannot write '" + tmp + "': " + why);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = errno_text();
    std::remove(tmp.c_str());
    return io_error("cannot rename '" + tmp + "' to '" + path + "': " + why);
  }
  return Status::ok();
}

}  // namespace twinrt::io
