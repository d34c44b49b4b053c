#include "ops/tensor/tensor_args.h"

#include <algorithm>
#include <limits>
#include <type_traits>

#include "kernels/math/half.h"
#include "ops/common/dispatch.h"

namespace twinrt::tensor_ops {
namespace {

// double -> integer without undefined behaviour: truncates, saturates, NaN gives 0.
template <class T>
T saturating_cast(double v) {
  if (!(v == v)) return 0;
  if (v <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

}  // namespace

Result<int64_t> normalize_axis(int64_t axis, int64_t rank, const std::string& what) {
  if (axis < -rank || axis >= rank)
    return invalid_model(what + " " + std::to_string(axis) + " is out of range for rank " +
                         std::to_string(rank) + " (expected [" + std::to_string(-rank) + ", " +
                         std::to_string(rank - 1) + "])");
  return axis < 0 ? axis + rank : axis;
}

Result<std::vector<int64_t>> normalize_axes(const std::vector<int64_t>& axes, int64_t rank,
                                            const std::string& what) {
  std::vector<int64_t> out;
  out.reserve(axes.size());
  for (int64_t a : axes) {
    ASSIGN_OR_RETURN(int64_t n, normalize_axis(a, rank, what));
    if (std::find(out.begin(), out.end(), n) != out.end())
      return invalid_model(what + " " + std::to_string(a) + " is repeated");
    out.push_back(n);
  }
  return out;
}

Result<std::vector<int64_t>> read_ints(const Tensor& t, const std::string& what) {
  std::vector<int64_t> out(static_cast<size_t>(t.numel()));
  if (t.dtype() == DataType::kInt64) {
    const int64_t* p = t.data<int64_t>();
    std::copy(p, p + t.numel(), out.begin());
  } else if (t.dtype() == DataType::kInt32) {
    const int32_t* p = t.data<int32_t>();
    std::copy(p, p + t.numel(), out.begin());
  } else {
    return invalid_argument(what + " must be int64 or int32, got " + dtype_name(t.dtype()));
  }
  return out;
}

Result<int64_t> read_int_scalar(const Tensor& t, const std::string& what) {
  if (t.numel() != 1)
    return invalid_argument(what + " must hold one value, got shape " + shape_to_string(t.shape()));
  ASSIGN_OR_RETURN(auto v, read_ints(t, what));
  return v[0];
}

Result<std::vector<double>> read_doubles(const Tensor& t, const std::string& what) {
  std::vector<double> out(static_cast<size_t>(t.numel()));
  Status st = dispatch<kAllNumeric>(t.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    const T* p = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i) {
      if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) out[i] = math::to_float(p[i]);
      else out[i] = static_cast<double>(p[i]);
    }
    return Status::ok();
  });
  TRY(st.with_context(what + ": "));
  return out;
}

Result<std::vector<int64_t>> read_as_ints(const Tensor& t, const std::string& what) {
  if (t.dtype() == DataType::kInt64 || t.dtype() == DataType::kInt32) return read_ints(t, what);
  std::vector<int64_t> out(static_cast<size_t>(t.numel()));
  TRY(dispatch<kAllNumeric>(t.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    const T* p = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i) {
      double v;
      if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) v = math::to_float(p[i]);
      else v = static_cast<double>(p[i]);
      if (!(v > -9.2e18 && v < 9.2e18))
        return invalid_argument(what + " value " + std::to_string(v) + " is not a valid integer");
      out[i] = static_cast<int64_t>(v);
    }
    return Status::ok();
  }));
  return out;
}

Result<Tensor> scalar_of_type(DataType dt, double v) {
  ASSIGN_OR_RETURN(Tensor t, Tensor::create(dt, {}));
  if (dt == DataType::kString) return t;
  TRY(dispatch<kAllNumeric | kBoolT>(dt, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    if constexpr (std::is_same_v<T, Float16>) *t.data<T>() = math::to_float16(static_cast<float>(v));
    else if constexpr (std::is_same_v<T, BFloat16>) *t.data<T>() = math::to_bfloat16(static_cast<float>(v));
    else if constexpr (std::is_same_v<T, bool>) *t.data<T>() = v != 0;
    else if constexpr (std::is_integral_v<T>) *t.data<T>() = saturating_cast<T>(v);
    else *t.data<T>() = static_cast<T>(v);
    return Status::ok();
  }));
  return t;
}

Result<std::vector<int64_t>> input_ints(const RunContext& ctx, size_t i, const std::string& what) {
  ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(i));
  return read_ints(*t, what);
}

std::optional<std::vector<int64_t>> constant_ints(const std::vector<const Tensor*>& constants,
                                                  size_t i) {
  if (i >= constants.size() || !constants[i]) return std::nullopt;
  auto v = read_ints(*constants[i], "");
  if (!v) return std::nullopt;
  return std::move(v).value();
}

std::optional<int64_t> static_length(const InferContext& ctx, size_t i) {
  const ir::Shape* s = ctx.shape(i);
  if (!s || s->size() != 1 || !(*s)[0].known()) return std::nullopt;
  return (*s)[0].value;
}

}  // namespace twinrt::tensor_ops
