// Broadcasting of binary ops before opset 7 (Add-6, Equal-1, Pow-1, ...): B is
// broadcast onto A only when `broadcast`=1, either as a single element or with its shape
// matching a contiguous run of A's dims starting at `axis` (suffix matching when `axis`
// is absent). Size-1 dims of B also stretch (pytorch exports rely on it). From opset 7 on,
// the same ops use multidirectional broadcasting and have neither attribute.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ops/op.h"

namespace twinrt {

class BinaryShapes {
 public:
  // Reads `broadcast` and `axis` when the node's opset is below 7.
  static Result<BinaryShapes> parse(const KernelInit& init);

  // The shapes to read A and B with and the output shape, or an error naming the clash.
  struct Resolved {
    std::vector<int64_t> a, b, out;
  };
  Result<Resolved> resolve(const std::vector<int64_t>& a, const std::vector<int64_t>& b) const;

  // Static output shape: A's shape for legacy ops, else the multidirectional broadcast.
  std::optional<ir::Shape> infer(const ir::Shape* a, const ir::Shape* b) const;

 private:
  bool legacy_ = false;
  bool broadcast_ = false;
  std::optional<int64_t> axis_;
};

}  // namespace twinrt
