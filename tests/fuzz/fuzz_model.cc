// Fuzzes load_model_bytes (copying and in-place) and, for whatever loads, writes the
// model back and loads it again: the writer must accept anything the reader produced.
#include <cstring>

#include "onnx/loader.h"
#include "onnx/writer.h"

namespace {

class BytesStorage final : public twinrt::Storage {
 public:
  BytesStorage(const uint8_t* data, size_t size) : bytes_(size) {
    if (size) std::memcpy(bytes_.data(), data, size);
  }
  std::byte* data() override { return bytes_.data(); }
  size_t size() const override { return bytes_.size(); }

 private:
  std::vector<std::byte> bytes_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace twinrt::onnx;
  auto copied = load_model_bytes(data, size, LoadOptions{});
  auto storage = std::make_shared<BytesStorage>(data, size);
  auto viewed = load_model_bytes(storage->data(), storage->size(), LoadOptions{}, storage);
  if (copied.is_ok() != viewed.is_ok()) __builtin_trap();  // zero copy must not change the outcome
  // Small resource limits, so that the size checks (all initializers' declared sizes, each
  // tensor) run on hostile bytes too.
  LoadOptions limited;
  limited.limits = {uint64_t{1} << 16, uint64_t{1} << 18};
  (void)load_model_bytes(data, size, limited);
  if (!copied.is_ok()) return 0;
  auto bytes = write_model(*copied);
  if (!bytes.is_ok()) return 0;
  auto again = load_model_bytes(bytes->data(), bytes->size(), LoadOptions{});
  if (!again.is_ok()) __builtin_trap();  // what twinrt writes, twinrt must read
  return 0;
}
