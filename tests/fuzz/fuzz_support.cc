#include "fuzz_support.h"

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>

#include "kernels/math/half.h"
#include "onnx/writer.h"
#include "ops/common/dispatch.h"
#include "twinrt/limits.h"

namespace twinrt::fuzz {

void use_small_limits() { set_resource_limits({uint64_t{1} << 20, uint64_t{16} << 20}); }

namespace {

template <class T>
void fill(FuzzedDataProvider& in, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, bool>) {
      // Any byte: feeds and initializers must normalise bools themselves.
      uint8_t b = in.ConsumeIntegral<uint8_t>();
      std::memcpy(&out[i], &b, 1);
    } else if constexpr (std::is_integral_v<T>) {
      out[i] = static_cast<T>(random_int(in));
    } else if constexpr (std::is_same_v<T, Float16>) {
      out[i] = math::to_float16(static_cast<float>(random_real(in)));
    } else if constexpr (std::is_same_v<T, BFloat16>) {
      out[i] = math::to_bfloat16(static_cast<float>(random_real(in)));
    } else if constexpr (std::is_same_v<T, std::string>) {
      out[i] = in.ConsumeRandomLengthString(8);
    } else if constexpr (std::is_floating_point_v<T>) {
      out[i] = static_cast<T>(random_real(in));
    } else {  // complex
      using R = typename T::value_type;
      out[i] = T(static_cast<R>(random_real(in)), static_cast<R>(random_real(in)));
    }
  }
}

}  // namespace

bool one_in(FuzzedDataProvider& in, int n) { return in.ConsumeIntegralInRange(1, n) == n; }

double random_real(FuzzedDataProvider& in) {
  static const double kSpecial[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -2.5, 1e-40, 1e30, -1e30,
                                    3.4e38, std::numeric_limits<double>::quiet_NaN(),
                                    std::numeric_limits<double>::infinity(),
                                    -std::numeric_limits<double>::infinity()};
  if (one_in(in, 4)) return in.PickValueInArray(kSpecial);
  return in.ConsumeFloatingPointInRange(-4.0, 4.0);
}

int64_t random_int(FuzzedDataProvider& in) {
  static const int64_t kExtreme[] = {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                                     std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(),
                                     int64_t{1} << 40, 255, 256, -129};
  if (one_in(in, 16)) return in.PickValueInArray(kExtreme);
  return in.ConsumeIntegralInRange<int64_t>(-3, 5);
}

Tensor random_tensor(FuzzedDataProvider& in, DataType dtype, const std::vector<int64_t>& dims) {
  auto made = Tensor::create(dtype, dims);
  if (!made) return Tensor{};
  Tensor t = std::move(*made);
  int64_t n = t.numel();
  // Every type dispatch() knows, and the complex ones it does not.
  if (dtype == DataType::kComplex64) fill(in, t.data<std::complex<float>>(), n);
  else if (dtype == DataType::kComplex128) fill(in, t.data<std::complex<double>>(), n);
  else (void)dispatch<kAllTypes>(dtype, [&](auto* tag) {
      fill(in, t.data<std::remove_pointer_t<decltype(tag)>>(), n);
      return Status::ok();
    });
  return t;
}

std::vector<int64_t> random_dims(FuzzedDataProvider& in, int max_rank, int min_rank) {
  std::vector<int64_t> dims(in.ConsumeIntegralInRange(min_rank, max_rank));
  for (int64_t& d : dims) d = one_in(in, 16) ? 0 : in.ConsumeIntegralInRange(1, 3);
  return dims;
}

DataType random_dtype(FuzzedDataProvider& in) {
  return static_cast<DataType>(in.ConsumeIntegralInRange(1, 16));
}

ir::Node make_node(std::string op_type, std::vector<std::string> inputs, std::vector<std::string> outputs,
                   std::vector<ir::Attribute> attributes, std::string domain) {
  ir::Node n;
  n.name = op_type;
  n.op_type = std::move(op_type);
  n.inputs = std::move(inputs);
  n.outputs = std::move(outputs);
  n.attributes = std::move(attributes);
  n.domain = std::move(domain);
  return n;
}

ir::ValueInfo value_info(std::string name, ir::TypeInfo type) { return {std::move(name), std::move(type), {}}; }

ir::TypeInfo tensor_type(DataType dtype, const std::vector<int64_t>& dims, const std::vector<std::string>& symbols) {
  ir::Shape shape;
  for (size_t i = 0; i < dims.size(); ++i) {
    ir::Dim d = ir::Dim::of(dims[i]);
    if (i < symbols.size() && !symbols[i].empty()) d = ir::Dim::named(symbols[i]);
    shape.push_back(d);
  }
  return ir::TypeInfo::tensor(dtype, std::move(shape));
}

ir::Model make_model(ir::Graph graph, int64_t opset) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = opset;
  m.graph = std::make_shared<ir::Graph>(std::move(graph));
  return m;
}

Result<std::unique_ptr<Session>> load_session(const ir::Model& model, const SessionOptions& options) {
  auto bytes = onnx::write_model(model);
  if (!bytes) return bytes.status();
  return Session::load_bytes(bytes->data(), bytes->size(), options);
}

}  // namespace twinrt::fuzz
