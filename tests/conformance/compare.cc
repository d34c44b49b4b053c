#include "compare.h"

#include <cmath>
#include <sstream>

#include "kernels/math/half.h"

namespace twinrt::conformance {
namespace {

// Element i of a numeric tensor as double (float16/bfloat16 widened exactly).
double element(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DataType::kFloat: return t.data<float>()[i];
    case DataType::kDouble: return t.data<double>()[i];
    case DataType::kFloat16: return math::to_float(t.data<Float16>()[i]);
    case DataType::kBFloat16: return math::to_float(t.data<BFloat16>()[i]);
    case DataType::kInt8: return t.data<int8_t>()[i];
    case DataType::kInt16: return t.data<int16_t>()[i];
    case DataType::kInt32: return t.data<int32_t>()[i];
    case DataType::kUInt8: return t.data<uint8_t>()[i];
    case DataType::kUInt16: return t.data<uint16_t>()[i];
    case DataType::kUInt32: return static_cast<double>(t.data<uint32_t>()[i]);
    case DataType::kBool: return t.data<bool>()[i] ? 1 : 0;
    default: return 0;
  }
}

std::string at(int64_t i) { return " at flat index " + std::to_string(i); }

std::string compare_tensors(const Tensor& a, const Tensor& e, const Tolerance& tol) {
  if (a.dtype() != e.dtype())
    return std::string("dtype ") + dtype_name(a.dtype()) + ", expected " + dtype_name(e.dtype());
  if (a.shape() != e.shape())
    return "shape " + shape_to_string(a.shape()) + ", expected " + shape_to_string(e.shape());
  const int64_t n = e.numel();
  switch (e.dtype()) {
    case DataType::kString:
      for (int64_t i = 0; i < n; ++i)
        if (a.data<std::string>()[i] != e.data<std::string>()[i])
          return "'" + a.data<std::string>()[i] + "', expected '" + e.data<std::string>()[i] + "'" + at(i);
      return {};
    case DataType::kInt64:
      for (int64_t i = 0; i < n; ++i)
        if (a.data<int64_t>()[i] != e.data<int64_t>()[i])
          return std::to_string(a.data<int64_t>()[i]) + ", expected " + std::to_string(e.data<int64_t>()[i]) + at(i);
      return {};
    case DataType::kUInt64:
      for (int64_t i = 0; i < n; ++i)
        if (a.data<uint64_t>()[i] != e.data<uint64_t>()[i])
          return std::to_string(a.data<uint64_t>()[i]) + ", expected " + std::to_string(e.data<uint64_t>()[i]) + at(i);
      return {};
    default:
      break;
  }
  const bool is_float = dtype_is_float(e.dtype());
  for (int64_t i = 0; i < n; ++i) {
    double x = element(a, i), y = element(e, i);
    bool ok;
    if (!is_float) ok = x == y;
    else if (std::isnan(y)) ok = std::isnan(x);
    else if (std::isinf(y)) ok = x == y;
    else ok = std::fabs(x - y) <= tol.atol + tol.rtol * std::fabs(y);
    if (!ok) {
      std::ostringstream s;
      s.precision(9);
      s << x << ", expected " << y << at(i);
      return s.str();
    }
  }
  return {};
}

const char* kind_name(Value::Kind k) {
  switch (k) {
    case Value::Kind::kTensor: return "tensor";
    case Value::Kind::kSequence: return "sequence";
    case Value::Kind::kOptional: return "optional";
    case Value::Kind::kNone: return "nothing";
  }
  return "?";
}

}  // namespace

std::string compare_values(const Value& a, const Value& e, const Tolerance& tol) {
  if (a.kind != e.kind)
    return std::string("got a ") + kind_name(a.kind) + ", expected a " + kind_name(e.kind);
  switch (e.kind) {
    case Value::Kind::kTensor:
      return compare_tensors(a.tensor, e.tensor, tol);
    case Value::Kind::kSequence:
      if (a.sequence.size() != e.sequence.size())
        return "sequence of " + std::to_string(a.sequence.size()) + ", expected " +
               std::to_string(e.sequence.size());
      for (size_t i = 0; i < e.sequence.size(); ++i) {
        std::string m = compare_tensors(a.sequence[i], e.sequence[i], tol);
        if (!m.empty()) return "sequence element " + std::to_string(i) + ": " + m;
      }
      return {};
    case Value::Kind::kOptional:
      if (!a.optional != !e.optional)
        return a.optional ? "optional has a value, expected none" : "optional is empty, expected a value";
      return a.optional ? compare_values(*a.optional, *e.optional, tol) : std::string();
    case Value::Kind::kNone:
      return {};
  }
  return {};
}

bool is_random_test(const std::string& name) {
  if (name.rfind("test_bernoulli", 0) == 0) return true;
  return name.rfind("test_training_dropout", 0) == 0 && name.find("zero_ratio") == std::string::npos;
}

namespace {

// |observed - expected| within 4 standard errors of a sum of independent Bernoulli draws.
bool rate_plausible(double observed_count, double expected_count, double variance) {
  return std::fabs(observed_count - expected_count) <= 4 * std::sqrt(variance) + 1;
}

std::string check_bernoulli(const Tensor& p, const Tensor& a, const Tensor& e) {
  if (a.dtype() != e.dtype() || a.shape() != e.shape())
    return "dtype/shape " + std::string(dtype_name(a.dtype())) + shape_to_string(a.shape()) + ", expected " +
           dtype_name(e.dtype()) + shape_to_string(e.shape());
  double ones = 0, mean = 0, var = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    double v = element(a, i), pi = element(p, i);
    if (v != 0 && v != 1) return "value " + std::to_string(v) + " is neither 0 nor 1" + at(i);
    ones += v;
    mean += pi;
    var += pi * (1 - pi);
  }
  if (!rate_plausible(ones, mean, var))
    return std::to_string(ones) + " ones, expected about " + std::to_string(mean);
  return {};
}

std::string check_dropout(const std::vector<Value>& in, const std::vector<Value>& a, const std::vector<Value>& e) {
  const Tensor& x = in[0].tensor;
  double ratio = in.size() > 1 && in[1].is_tensor() ? element(in[1].tensor, 0) : 0.5;
  const Tensor& y = a[0].tensor;
  if (y.dtype() != e[0].tensor.dtype() || y.shape() != e[0].tensor.shape()) return "dtype or shape differs";
  double scale = 1 / (1 - ratio), dropped = 0;
  for (int64_t i = 0; i < y.numel(); ++i) {
    double v = element(y, i), kept = element(x, i) * scale;
    bool is_dropped = v == 0 && kept != 0;
    if (!is_dropped && std::fabs(v - kept) > 1e-6 + 1e-5 * std::fabs(kept))
      return "value " + std::to_string(v) + " is neither 0 nor x/(1-ratio)=" + std::to_string(kept) + at(i);
    dropped += is_dropped;
    if (a.size() > 1 && a[1].is_tensor()) {
      bool mask = a[1].tensor.data<bool>()[i];
      if (mask == is_dropped) return "mask disagrees with the output" + at(i);
    }
  }
  double n = static_cast<double>(y.numel());
  if (!rate_plausible(dropped, n * ratio, n * ratio * (1 - ratio)))
    return std::to_string(dropped) + " dropped, expected about " + std::to_string(n * ratio);
  return {};
}

}  // namespace

std::string check_random_outputs(const std::string& name, const std::vector<Value>& inputs,
                                 const std::vector<Value>& actual, const std::vector<Value>& expected) {
  if (actual.size() != expected.size() || inputs.empty()) return "output count differs";
  for (size_t i = 0; i < actual.size(); ++i)
    if (!actual[i].is_tensor() || !expected[i].is_tensor()) return "random outputs must be tensors";
  if (name.rfind("test_bernoulli", 0) == 0)
    return check_bernoulli(inputs[0].tensor, actual[0].tensor, expected[0].tensor);
  return check_dropout(inputs, actual, expected);
}

}  // namespace twinrt::conformance
