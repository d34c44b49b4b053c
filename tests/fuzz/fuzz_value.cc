// Fuzzes parse_value under every kind of expected type (the bytes carry no tag saying
// which message they hold), and parse_tensor.
#include "onnx/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using twinrt::ir::TypeInfo;
  using twinrt::DataType;
  static const TypeInfo kTypes[] = {
      TypeInfo{},
      TypeInfo::tensor(DataType::kFloat),
      TypeInfo::sequence_of(TypeInfo::tensor(DataType::kFloat)),
      TypeInfo::sequence_of(TypeInfo{}),
      TypeInfo::optional_of(TypeInfo::tensor(DataType::kInt64)),
      TypeInfo::optional_of(TypeInfo::sequence_of(TypeInfo::tensor(DataType::kFloat))),
      TypeInfo::optional_of(TypeInfo::optional_of(TypeInfo::tensor(DataType::kFloat))),
      [] { TypeInfo t; t.kind = TypeInfo::Kind::kSparseTensor; return t; }(),
  };
  for (const TypeInfo& t : kTypes) (void)twinrt::onnx::parse_value(data, size, t);
  (void)twinrt::onnx::parse_tensor(data, size);
  return 0;
}
