#include "cli/value_printing.h"

#include "io/tensor_stats.h"

namespace twinrt::cli {

std::string describe_tensor(const Tensor& t) {
  std::string s = std::string(dtype_name(t.dtype())) + shape_to_string(t.shape());
  auto stats = io::tensor_stats(t);
  if (stats) return s + " " + io::format_stats(*stats);
  if (t.dtype() == DataType::kString && t.numel() > 0) {
    constexpr size_t kMaxShown = 40;
    const std::string& first = t.data<std::string>()[0];
    return s + " first=\"" + first.substr(0, kMaxShown) + (first.size() > kMaxShown ? "...\"" : "\"");
  }
  return s;
}

std::vector<std::string> describe_value(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kTensor: return {describe_tensor(v.tensor)};
    case Value::Kind::kSequence: {
      std::vector<std::string> lines = {"sequence of " + std::to_string(v.sequence.size()) + " " +
                                        dtype_name(v.sequence_dtype) + " tensors"};
      for (size_t i = 0; i < v.sequence.size(); ++i)
        lines.push_back("  [" + std::to_string(i) + "] " + describe_tensor(v.sequence[i]));
      return lines;
    }
    case Value::Kind::kOptional: {
      if (!v.optional) return {"optional: empty"};
      std::vector<std::string> lines = describe_value(*v.optional);
      lines[0] = "optional holding " + lines[0];
      return lines;
    }
    case Value::Kind::kNone: return {"no value"};
  }
  return {"no value"};
}

}  // namespace twinrt::cli
