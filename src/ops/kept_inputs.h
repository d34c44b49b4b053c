// Kernels that keep their own copy of a constant input (weights packed when the session is
// created) say so here, so that a session that owns the model's bytes can release the
// constant's bytes (runtime/compile.cc). A kernel without this interface reads them all.
#pragma once

#include <cstddef>

namespace twinrt {

class KeepsInputCopies {
 public:
  virtual ~KeepsInputCopies() = default;
  // True when the kernel never reads constant input `i`'s bytes while running (unless a
  // feed replaces that input: then it reads the feed).
  virtual bool keeps_copy_of_input(size_t i) const = 0;
};

}  // namespace twinrt
