// PLACEHOLDER until the wire reader lands: every entry point reports not_implemented.
#include "onnx/loader.h"

namespace twinrt::onnx {

Result<ir::Model> load_model_file(const std::string& path) {
  return not_implemented("model loading is not built yet: " + path);
}
Result<ir::Model> load_model_bytes(const void*, size_t, const LoadOptions&, std::shared_ptr<Storage>) {
  return not_implemented("model loading is not built yet");
}
Result<Tensor> parse_tensor(const void*, size_t) { return not_implemented("parse_tensor"); }
Result<Value> parse_value(const void*, size_t, const ir::TypeInfo&) { return not_implemented("parse_value"); }
Result<std::string> read_file(const std::string& path) { return not_implemented("read_file " + path); }
std::string serialize_tensor(const Tensor&, const std::string&) { return {}; }

}  // namespace twinrt::onnx
