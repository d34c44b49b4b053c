// State shared by the message readers while one model (or test-data file) is parsed.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "onnx/loader.h"
#include "io/regular_file.h"

namespace twinrt::onnx {

// Graphs nest through attributes, types through sequences/optionals: a hostile file could
// nest until the stack overflows, so every nested message counts against this cap.
inline constexpr int kMaxNestingDepth = 64;

struct ReadContext {
  LoadOptions options;
  // Owns the bytes being parsed; when set, raw tensor data may be viewed instead of copied.
  std::shared_ptr<Storage> keepalive;
  // External-data files opened so far, by resolved path (many tensors share one file).
  std::map<std::string, io::RegularFile> external_files;
  // When set, receives each external-data file the model uses (for `inspect`).
  std::vector<ExternalFileUse>* external_uses = nullptr;
  int depth = 0;
  uint64_t tensor_bytes = 0;  // of every tensor read so far, against options.limits
};

// Checks a tensor about to be read (`bytes`: its dense size) against the limits and
// counts it; `what` names it ("float32[4096,4096]").
inline Status charge_tensor(ReadContext& ctx, uint64_t bytes, const std::string& what) {
  TRY(check_tensor_bytes(bytes, what, ctx.options.limits));
  TRY(check_memory_bytes(ctx.tensor_bytes, bytes, what, ctx.options.limits));
  ctx.tensor_bytes += bytes;
  return Status::ok();
}

// Counts one level of message nesting for as long as it lives.
class NestingGuard {
 public:
  explicit NestingGuard(ReadContext& ctx) : ctx_(ctx) { ++ctx_.depth; }
  ~NestingGuard() { --ctx_.depth; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;
  Status check(const char* message) const {
    if (ctx_.depth <= kMaxNestingDepth) return Status::ok();
    return invalid_model(std::string(message) + ": messages nested deeper than " +
                         std::to_string(kMaxNestingDepth) + " levels");
  }

 private:
  ReadContext& ctx_;
};

}  // namespace twinrt::onnx
