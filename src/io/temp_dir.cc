#include "io/temp_dir.h"

#include <stdlib.h>

#include <filesystem>

namespace twinrt::io {

Result<std::unique_ptr<TempDir>> TempDir::create(const std::string& prefix) {
  std::error_code ec;
  std::string pattern = (std::filesystem::temp_directory_path(ec) / (prefix + "-XXXXXX")).string();
  if (ec) pattern = "/tmp/" + prefix + "-XXXXXX";
  if (!mkdtemp(pattern.data())) return io_error("cannot create a temporary folder like " + pattern);
  return std::unique_ptr<TempDir>(new TempDir(pattern));
}

TempDir::~TempDir() {
  std::error_code ec;  // best effort: a leftover temp folder is not worth failing for
  std::filesystem::remove_all(path_, ec);
}

}  // namespace twinrt::io
