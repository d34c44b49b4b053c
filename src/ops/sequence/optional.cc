// Optional (opset 15): wraps its input, or makes an empty optional of the type given by
// the `type` attribute. OptionalHasElement / OptionalGetElement inspect and unwrap one.
// From opset 18 both also accept a plain tensor or sequence (treated as present) and
// OptionalHasElement a missing input (absent); accepting these earlier is harmless.
#include "ops/sequence/sequence_util.h"

namespace twinrt {
namespace {

class OptionalKernel final : public OpKernel {
 public:
  explicit OptionalKernel(std::optional<ir::TypeInfo> declared) : declared_(std::move(declared)) {}

  Status infer(InferContext& ctx) const override {
    if (declared_) ctx.output_types[0] = ir::TypeInfo::optional_of(*declared_);
    else if (!ctx.input_types.empty()) ctx.output_types[0] = ir::TypeInfo::optional_of(ctx.input_types[0]);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    const Value* v = ctx.input_value(0);
    ctx.set_output(0, Value::of_optional(v ? std::make_shared<const Value>(*v) : nullptr));
    return Status::ok();
  }

 private:
  std::optional<ir::TypeInfo> declared_;
};

Result<std::unique_ptr<OpKernel>> create_optional(const KernelInit& init) {
  if (init.num_inputs() > 1) return init.error("takes at most one input");
  std::optional<ir::TypeInfo> declared;
  if (const ir::Attribute* a = init.attr("type")) {
    if (a->type != ir::Attribute::Type::kTypeProto || a->type_protos.size() != 1)
      return init.error("attribute 'type' must be a single type proto");
    declared = a->type_protos[0];
  }
  if (!init.has_input(0) && !declared) return init.error("an Optional without input needs the 'type' attribute");
  return make_kernel<OptionalKernel>(std::move(declared));
}

// The element of an optional value, the value itself when it is not an optional, or null
// when it is empty or missing.
const Value* element_of(const Value* v) {
  if (!v) return nullptr;
  return v->is_optional() ? v->optional.get() : v;
}

class OptionalHasElementKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, DataType::kBool, std::vector<int64_t>{});
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(Tensor* out, ctx.output(0, DataType::kBool, {}));
    *out->data<bool>() = element_of(ctx.input_value(0)) != nullptr;
    return Status::ok();
  }
};

class OptionalGetElementKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    const ir::TypeInfo& in = ctx.input_types[0];
    ctx.output_types[0] = in.kind == ir::TypeInfo::Kind::kOptional && in.inner ? *in.inner : in;
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    const Value* v = element_of(ctx.input_value(0));
    if (!v) return invalid_argument("the optional input is empty");
    ctx.set_output(0, *v);
    return Status::ok();
  }
};

Result<std::unique_ptr<OpKernel>> create_optional_has_element(const KernelInit& init) {
  if (init.num_inputs() > 1) return init.error("takes at most one input");
  return make_kernel<OptionalHasElementKernel>();
}

}  // namespace

TWINRT_REGISTER_OP("Optional", 15, create_optional);
TWINRT_REGISTER_OP("OptionalHasElement", 15, create_optional_has_element);
TWINRT_REGISTER_OP("OptionalGetElement", 15, (create_fixed_arity<OptionalGetElementKernel, 1, 1>));

}  // namespace twinrt
