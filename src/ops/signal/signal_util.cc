#include "ops/signal/signal_util.h"

#include <type_traits>

#include "kernels/math/math.h"
#include "ops/cast/element_convert.h"
#include "ops/common/dispatch.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt::signal {
namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

double two_pi_fraction(int64_t m, int64_t n) {
  m %= n;
  if (m < 0) m += n;
  return kTwoPi * (static_cast<double>(m) / static_cast<double>(n));
}

}  // namespace

double cos_two_pi_fraction(int64_t m, int64_t n) { return math::cos(two_pi_fraction(m, n)); }
double sin_two_pi_fraction(int64_t m, int64_t n) { return math::sin(two_pi_fraction(m, n)); }

Twiddles::Twiddles(int64_t n, bool inverse) : cos_(static_cast<size_t>(n)), sin_(static_cast<size_t>(n)) {
  const double sign = inverse ? 1.0 : -1.0;
  for (int64_t m = 0; m < n; ++m) {
    cos_[static_cast<size_t>(m)] = cos_two_pi_fraction(m, n);
    sin_[static_cast<size_t>(m)] = sign * sin_two_pi_fraction(m, n);
  }
}

void dft(const double* in, int64_t available, const Twiddles& w, int64_t bins, bool inverse, double* out) {
  const int64_t n = w.size();
  const int64_t count = available < n ? available : n;
  const double scale = inverse ? 1.0 / static_cast<double>(n) : 1.0;
  for (int64_t k = 0; k < bins; ++k) {
    double re = 0, im = 0;
    int64_t m = 0;  // j * k mod n, advanced without overflow
    for (int64_t j = 0; j < count; ++j) {
      const double xr = in[2 * j], xi = in[2 * j + 1];
      re += xr * w.re(m) - xi * w.im(m);
      im += xr * w.im(m) + xi * w.re(m);
      m += k;
      if (m >= n) m -= n;
    }
    out[2 * k] = re * scale;
    out[2 * k + 1] = im * scale;
  }
}

Result<DataType> parse_output_datatype(const KernelInit& init) {
  ASSIGN_OR_RETURN(int64_t code, init.attr_int("output_datatype", static_cast<int64_t>(DataType::kFloat)));
  const DataType t = static_cast<DataType>(code);
  const bool numeric = code >= 0 && code <= INT32_MAX && dtype_is_valid(static_cast<int32_t>(code)) &&
                       dispatch<kAllNumeric>(t, [](auto*) { return Status::ok(); }).is_ok();
  if (!numeric)
    return init.error("attribute output_datatype must be a numeric TensorProto data type, got " +
                      std::to_string(code));
  return t;
}

Status write_values(RunContext& ctx, DataType dtype, std::vector<int64_t> shape,
                    const std::function<double(int64_t)>& value) {
  ASSIGN_OR_RETURN(Tensor * out, ctx.output(0, dtype, std::move(shape)));
  return dispatch<kAllNumeric>(dtype, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    T* dst = out->data<T>();
    for (int64_t i = 0; i < out->numel(); ++i) dst[i] = cast::convert_element<T>(value(i));
    return Status::ok();
  });
}

std::optional<int64_t> constant_int_scalar(const InferContext& ctx, size_t i) {
  auto values = tensor_ops::constant_ints(ctx.constant_inputs, i);
  if (!values || values->size() != 1) return std::nullopt;
  return (*values)[0];
}

Result<int64_t> int_scalar_input(const RunContext& ctx, size_t i, const char* name) {
  ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(i));
  return tensor_ops::read_int_scalar(*t, std::string("input ") + name);
}

}  // namespace twinrt::signal
