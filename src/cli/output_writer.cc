#include "cli/output_writer.h"

#include <filesystem>

#include "cli/exit_status.h"
#include "io/npy.h"
#include "kernels/math/half.h"

namespace twinrt::cli {
namespace {

Result<Tensor> widen_bfloat16(const Tensor& t) {
  ASSIGN_OR_RETURN(Tensor out, Tensor::create(DataType::kFloat, t.shape()));
  const BFloat16* in = t.data<BFloat16>();
  float* o = out.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) o[i] = math::to_float(in[i]);
  return out;
}

Status write_tensor(const std::string& path, const std::string& output_name, const Tensor& t) {
  if (t.dtype() != DataType::kBFloat16) return io::write_npy_file(path, t);
  warn("output '" + output_name + "' is bfloat16, written to " + path + " as float32 (NumPy has no bfloat16)");
  ASSIGN_OR_RETURN(Tensor wide, widen_bfloat16(t));
  return io::write_npy_file(path, wide);
}

Status write_value(const std::string& stem, const std::string& output_name, const Value& v,
                   std::vector<std::string>* written) {
  switch (v.kind) {
    case Value::Kind::kTensor:
      TRY(write_tensor(stem + ".npy", output_name, v.tensor));
      written->push_back(stem + ".npy");
      return Status::ok();
    case Value::Kind::kSequence:
      for (size_t j = 0; j < v.sequence.size(); ++j) {
        const std::string path = stem + "_" + std::to_string(j) + ".npy";
        TRY(write_tensor(path, output_name, v.sequence[j]));
        written->push_back(path);
      }
      return Status::ok();
    case Value::Kind::kOptional:
      return v.optional ? write_value(stem, output_name, *v.optional, written) : Status::ok();
    case Value::Kind::kNone: return Status::ok();
  }
  return Status::ok();
}

}  // namespace

Status write_outputs(const std::string& dir, const std::vector<std::pair<std::string, Value>>& outputs,
                     std::vector<std::string>* written) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return io_error("--out: cannot create directory '" + dir + "': " + ec.message());
  Status first_failure;
  std::string failures;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string stem = (std::filesystem::path(dir) / ("output_" + std::to_string(i))).string();
    Status st = write_value(stem, outputs[i].first, outputs[i].second, written);
    if (st) continue;
    if (first_failure.is_ok()) first_failure = st;
    failures += "\n  output '" + outputs[i].first + "': " + st.message();
  }
  if (first_failure.is_ok()) return Status::ok();
  return Status(first_failure.code(), "--out: some outputs were not written:" + failures);
}

}  // namespace twinrt::cli
