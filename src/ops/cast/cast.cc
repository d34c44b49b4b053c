// Cast (to = attribute) and CastLike (to = the type of a second input): every pair of
// numeric, bool and string types (conversion rules in element_convert.h and
// string_convert.h). A cast to the input's own type shares the input.
#include <string>
#include <type_traits>

#include "ops/cast/element_convert.h"
#include "ops/cast/string_convert.h"
#include "ops/common/dispatch.h"
#include "ops/op.h"
#include "runtime/thread_pool.h"

namespace twinrt {
namespace {

constexpr unsigned kCastTypes = kAllNumeric | kBoolT | kStr;
constexpr int64_t kGrain = 1 << 14;

template <class From, class To>
Status convert_tensor(ThreadPool& pool, const Tensor& in, Tensor& out) {
  const From* src = in.data<From>();
  To* dst = out.data<To>();
  const int64_t n = in.numel();
  if constexpr (std::is_same_v<From, std::string>) {
    // Parsing can fail: stop at the first bad element (in index order, whatever the threads).
    for (int64_t i = 0; i < n; ++i) {
      auto v = cast::parse_text<To>(src[i]);
      if (!v.is_ok()) return v.status();
      dst[i] = v.value();
    }
  } else {
    pool.parallel_for(n, kGrain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        if constexpr (std::is_same_v<To, std::string>) dst[i] = cast::format_text(src[i]);
        else dst[i] = cast::convert_element<To>(src[i]);
      }
    });
  }
  return Status::ok();
}

Status cast_tensor(RunContext& ctx, const Tensor& in, DataType to) {
  if (in.dtype() == to) {
    ctx.set_output(0, Value::of(in));
    return Status::ok();
  }
  ASSIGN_OR_RETURN(Tensor * out, ctx.output_for_overwrite(0, to, in.shape()));  // every element converted
  return dispatch<kCastTypes>(in.dtype(), [&](auto* from_tag) {
    using From = std::remove_pointer_t<decltype(from_tag)>;
    return dispatch<kCastTypes>(to, [&](auto* to_tag) {
      using To = std::remove_pointer_t<decltype(to_tag)>;
      if constexpr (std::is_same_v<From, std::string> && std::is_same_v<To, std::string>) {
        return Status::ok();  // unreachable: same type is shared above
      } else {
        return convert_tensor<From, To>(ctx.pool(), in, *out);
      }
    });
  });
}

Status check_cast_type(const KernelInit& init, DataType t, const char* what) {
  if (Status st = dispatch<kCastTypes>(t, [](auto*) { return Status::ok(); }); !st.is_ok())
    return init.unsupported(std::string("cannot cast ") + what + " " + dtype_name(t));
  return Status::ok();
}

void set_cast_output(InferContext& ctx, DataType to) {
  const ir::Shape* shape = ctx.shape(0);
  ctx.set_output(0, to, shape ? std::optional<ir::Shape>(*shape) : std::nullopt);
}

class CastKernel final : public OpKernel {
 public:
  explicit CastKernel(DataType to) : to_(to) {}
  Status infer(InferContext& ctx) const override {
    set_cast_output(ctx, to_);
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    return cast_tensor(ctx, *x, to_);
  }

 private:
  DataType to_;
};

class CastLikeKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    if (ctx.dtype(1) != DataType::kUndefined) set_cast_output(ctx, ctx.dtype(1));
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(const Tensor* like, ctx.tensor_input(1));
    return cast_tensor(ctx, *x, like->dtype());
  }
};

// A TensorProto.DataType enum name ("FLOAT", "INT64", ...), as opset 1 spells `to`.
Result<DataType> dtype_from_onnx_name(const KernelInit& init, const std::string& name) {
  static const struct { const char* name; DataType type; } kNames[] = {
      {"FLOAT", DataType::kFloat},     {"UINT8", DataType::kUInt8},     {"INT8", DataType::kInt8},
      {"UINT16", DataType::kUInt16},   {"INT16", DataType::kInt16},     {"INT32", DataType::kInt32},
      {"INT64", DataType::kInt64},     {"STRING", DataType::kString},   {"BOOL", DataType::kBool},
      {"FLOAT16", DataType::kFloat16}, {"DOUBLE", DataType::kDouble},   {"UINT32", DataType::kUInt32},
      {"UINT64", DataType::kUInt64},   {"BFLOAT16", DataType::kBFloat16}};
  for (const auto& entry : kNames)
    if (name == entry.name) return entry.type;
  return init.error("attribute 'to' is not a known data type name: \"" + name + "\"");
}

Status check_source(const KernelInit& init) {
  if (DataType from = init.input_dtype(0); from != DataType::kUndefined)
    TRY(check_cast_type(init, from, "from"));
  return Status::ok();
}

Result<std::unique_ptr<OpKernel>> create_cast(const KernelInit& init) {
  if (init.num_inputs() != 1 || init.num_outputs() != 1)
    return init.error("expects 1 input and 1 output, got " + std::to_string(init.num_inputs()) +
                      " and " + std::to_string(init.num_outputs()));
  if (!init.has_attr("to")) return init.error("missing required attribute 'to'");
  DataType to;
  if (const ir::Attribute* a = init.attr("to"); a->type == ir::Attribute::Type::kString) {
    // Opset 1 named the type ("FLOAT", "INT64", ...).
    ASSIGN_OR_RETURN(std::string name, init.attr_string("to", ""));
    ASSIGN_OR_RETURN(to, dtype_from_onnx_name(init, name));
  } else {
    ASSIGN_OR_RETURN(int64_t code, init.attr_int("to", 0));
    if (code < 0 || code > INT32_MAX || !dtype_is_valid(static_cast<int32_t>(code)))
      return init.error("attribute 'to' is not a known data type: " + std::to_string(code));
    to = static_cast<DataType>(code);
  }
  TRY(check_cast_type(init, to, "to"));
  TRY(check_source(init));
  return make_kernel<CastKernel>(to);
}

Result<std::unique_ptr<OpKernel>> create_cast_like(const KernelInit& init) {
  if (init.num_inputs() != 2 || init.num_outputs() != 1)
    return init.error("expects 2 inputs and 1 output, got " + std::to_string(init.num_inputs()) +
                      " and " + std::to_string(init.num_outputs()));
  TRY(check_source(init));
  if (DataType to = init.input_dtype(1); to != DataType::kUndefined) TRY(check_cast_type(init, to, "to"));
  return make_kernel<CastLikeKernel>();
}

}  // namespace

TWINRT_REGISTER_OP("Cast", 1, create_cast);
TWINRT_REGISTER_OP("CastLike", 15, create_cast_like);

}  // namespace twinrt
