// Constant (a tensor given by exactly one attribute, built once when the session is
// created and shared with every run) and ConstantOfShape (a shape filled with one value).
#include "ops/op.h"
#include "ops/tensor/elements.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

class ConstantKernel final : public OpKernel {
 public:
  explicit ConstantKernel(Tensor value) : value_(std::move(value)) {}

  Status infer(InferContext& ctx) const override {
    ctx.set_output(0, value_.dtype(), value_.shape());
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    ctx.set_output(0, Value::of(value_));
    return Status::ok();
  }

 private:
  Tensor value_;
};

// The tensor described by the one value attribute a Constant node carries.
Result<Tensor> constant_value(const KernelInit& init, const ir::Attribute& a) {
  using Type = ir::Attribute::Type;
  const std::string& n = a.name;
  const auto expect = [&](Type t) {
    return a.type == t ? Status::ok()
                       : init.error("attribute '" + n + "' is " + ir::attribute_type_name(a.type) + ", expected " +
                                    ir::attribute_type_name(t));
  };
  if (n == "value") {
    TRY(expect(Type::kTensor));
    return a.t;
  }
  if (n == "sparse_value") {  // the loader densifies sparse tensors
    TRY(expect(Type::kSparseTensor));
    return a.t;
  }
  if (n == "value_float") {
    TRY(expect(Type::kFloat));
    return Tensor::from_vector<float>({}, {a.f});
  }
  if (n == "value_floats") {
    TRY(expect(Type::kFloats));
    return Tensor::from_vector<float>({static_cast<int64_t>(a.floats.size())}, a.floats);
  }
  if (n == "value_int") {
    TRY(expect(Type::kInt));
    return Tensor::from_vector<int64_t>({}, {a.i});
  }
  if (n == "value_ints") {
    TRY(expect(Type::kInts));
    return Tensor::from_vector<int64_t>({static_cast<int64_t>(a.ints.size())}, a.ints);
  }
  if (n == "value_string") {
    TRY(expect(Type::kString));
    return Tensor::from_vector<std::string>({}, {a.s});
  }
  if (n == "value_strings") {
    TRY(expect(Type::kStrings));
    return Tensor::from_vector<std::string>({static_cast<int64_t>(a.strings.size())}, a.strings);
  }
  return init.error("unknown attribute '" + n + "'");
}

Result<std::unique_ptr<OpKernel>> create_constant(const KernelInit& init) {
  if (init.num_inputs() != 0 || init.num_outputs() != 1) return init.error("Constant takes no inputs and one output");
  if (init.node.attributes.size() != 1)
    return init.error("Constant needs exactly one value attribute, got " + std::to_string(init.node.attributes.size()));
  ASSIGN_OR_RETURN(Tensor value, constant_value(init, *init.attr(init.node.attributes[0].name)));
  if (!value.defined()) return init.error("Constant value is empty");
  return make_kernel<ConstantKernel>(std::move(value));
}

class ConstantOfShapeKernel final : public OpKernel {
 public:
  explicit ConstantOfShapeKernel(Tensor value) : value_(std::move(value)) {}

  Status infer(InferContext& ctx) const override {
    if (auto shape = tensor_ops::constant_ints(ctx.constant_inputs, 0)) {
      TRY(check_shape(*shape));
      ctx.set_output(0, value_.dtype(), *shape);
    } else if (auto rank = tensor_ops::static_length(ctx, 0)) {
      ctx.set_output(0, value_.dtype(), ir::Shape(static_cast<size_t>(*rank)));
    } else {
      ctx.set_output(0, value_.dtype());
    }
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(auto shape, tensor_ops::input_ints(ctx, 0, "ConstantOfShape input"));
    TRY(check_shape(shape));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, value_.dtype(), shape));
    return tensor_ops::fill_elements(value_.dtype(), y->raw(), value_.raw(), y->numel());
  }

 private:
  static Status check_shape(const std::vector<int64_t>& shape) {
    for (int64_t d : shape)
      if (d < 0) return invalid_argument("ConstantOfShape shape " + shape_to_string(shape) + " has a negative dim");
    return Status::ok();
  }
  Tensor value_;
};

Result<std::unique_ptr<OpKernel>> create_constant_of_shape(const KernelInit& init) {
  if (!init.has_input(0) || init.num_outputs() != 1) return init.error("ConstantOfShape takes a shape and one output");
  Tensor value;
  if (init.has_attr("value")) {
    ASSIGN_OR_RETURN(value, init.attr_tensor("value"));
    if (value.numel() != 1)
      return init.error("attribute 'value' must hold one element, got shape " + shape_to_string(value.shape()));
  } else {
    ASSIGN_OR_RETURN(value, tensor_ops::scalar_of_type(DataType::kFloat, 0));
  }
  return make_kernel<ConstantOfShapeKernel>(std::move(value));
}

}  // namespace

TWINRT_REGISTER_OP("Constant", 1, create_constant);
TWINRT_REGISTER_OP("ConstantOfShape", 9, create_constant_of_shape);

}  // namespace twinrt
