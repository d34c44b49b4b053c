// A private temporary folder that is removed with everything in it when the object dies.
#pragma once

#include <memory>
#include <string>

#include "twinrt/status.h"

namespace twinrt::io {

class TempDir {
 public:
  // Creates "<system temp>/<prefix>-XXXXXX" (mode 0700).
  static Result<std::unique_ptr<TempDir>> create(const std::string& prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  explicit TempDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

}  // namespace twinrt::io
