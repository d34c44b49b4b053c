// Runs one tensor op through the registry exactly as a session does (factory, infer,
// run), without a model file:
//
//   auto y = TensorOpTest("Transpose", 13).attr("perm", {1, 0}).input(x).run();
//
// Inputs may be declared with symbolic shapes to test shape inference alone (infer()).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/op.h"
#include "kernel_runner.h"

namespace twinrt::tensor_testing {

template <class T>
Tensor make(std::vector<int64_t> shape, std::vector<T> values) {
  auto t = Tensor::from_vector<T>(std::move(shape), values);
  EXPECT_TRUE(t.is_ok()) << t.status().message();
  return t.is_ok() ? t.value() : Tensor{};
}

inline ir::Dim sym(const std::string& name) { return ir::Dim::named(name); }
inline ir::Dim dim(int64_t v) { return ir::Dim::of(v); }

class TensorOpTest {
 public:
  TensorOpTest(std::string op, int64_t opset) : opset_(opset) {
    node_.op_type = std::move(op);
    node_.name = "under_test";
  }
  TensorOpTest& attr(const std::string& name, int64_t v) {
    return add(name, ir::Attribute::Type::kInt, [&](ir::Attribute& a) { a.i = v; });
  }
  TensorOpTest& attr(const std::string& name, int v) { return attr(name, int64_t{v}); }
  TensorOpTest& attr(const std::string& name, float v) {
    return add(name, ir::Attribute::Type::kFloat, [&](ir::Attribute& a) { a.f = v; });
  }
  TensorOpTest& attr(const std::string& name, const char* v) {
    return add(name, ir::Attribute::Type::kString, [&](ir::Attribute& a) { a.s = v; });
  }
  TensorOpTest& attr(const std::string& name, std::vector<int64_t> v) {
    return add(name, ir::Attribute::Type::kInts, [&](ir::Attribute& a) { a.ints = v; });
  }
  TensorOpTest& attr(const std::string& name, std::vector<float> v) {
    return add(name, ir::Attribute::Type::kFloats, [&](ir::Attribute& a) { a.floats = v; });
  }
  TensorOpTest& attr(const std::string& name, std::vector<std::string> v) {
    return add(name, ir::Attribute::Type::kStrings, [&](ir::Attribute& a) { a.strings = v; });
  }
  TensorOpTest& attr(const std::string& name, Tensor v) {
    return add(name, ir::Attribute::Type::kTensor, [&](ir::Attribute& a) { a.t = v; });
  }

  // A run-time input; `constant` makes its value known at creation (an initializer).
  TensorOpTest& input(Tensor t, bool constant = false) {
    ir::TypeInfo type = ir::TypeInfo::tensor(t.dtype(), ir::shape_of(t.shape()));
    return add_input(Value::of(std::move(t)), std::move(type), constant);
  }
  template <class T>
  TensorOpTest& input(std::vector<int64_t> shape, std::vector<T> values, bool constant = false) {
    return input(make<T>(std::move(shape), std::move(values)), constant);
  }
  // An input known only by its type (for infer()).
  TensorOpTest& input_type(DataType dt, std::optional<ir::Shape> shape) {
    return add_input(Value{}, ir::TypeInfo::tensor(dt, std::move(shape)), false);
  }
  TensorOpTest& missing_input() {
    node_.inputs.push_back("");
    inputs_.emplace_back();
    types_.emplace_back();
    present_.push_back(false);
    constant_.push_back(false);
    return *this;
  }
  TensorOpTest& outputs(size_t n) {
    num_outputs_ = n;
    return *this;
  }

  // Creates the kernel and infers output types without running.
  Result<std::vector<ir::TypeInfo>> infer(Mode mode = Mode::kDefault) {
    ASSIGN_OR_RETURN(kernel_, create(mode));
    std::vector<const Tensor*> consts = constants();
    InferContext ictx{node_, opset_, types_, consts, std::vector<ir::TypeInfo>(num_outputs_)};
    TRY(kernel_->infer(ictx));
    return ictx.output_types;
  }

  // Creates, infers and runs; returns the outputs. Checks that every inferred shape
  // agrees with what the kernel produced.
  Result<std::vector<Tensor>> run(Mode mode = Mode::kDefault, int threads = 1) {
    ASSIGN_OR_RETURN(auto types, infer(mode));
    ASSIGN_OR_RETURN(auto values, testing::run_kernel(*kernel_, inputs_, present_, num_outputs_, mode, threads));
    std::vector<Tensor> out;
    for (size_t i = 0; i < values.size(); ++i) {
      const Tensor& t = values[i].tensor;
      check_inferred(types[i], t, i);
      out.push_back(t);
    }
    return out;
  }

 private:
  static void check_inferred(const ir::TypeInfo& type, const Tensor& t, size_t i) {
    if (!type.is_tensor()) return;
    EXPECT_EQ(type.elem, t.dtype()) << "inferred dtype of output " << i;
    if (!type.shape) return;
    ASSERT_EQ(type.shape->size(), t.shape().size()) << "inferred rank of output " << i;
    for (size_t d = 0; d < t.shape().size(); ++d) {
      if ((*type.shape)[d].known()) {
        EXPECT_EQ((*type.shape)[d].value, t.shape()[d]) << "inferred dim " << d << " of output " << i;
      }
    }
  }
  Result<std::unique_ptr<OpKernel>> create(Mode mode) {
    node_.outputs.clear();
    for (size_t i = 0; i < num_outputs_; ++i) node_.outputs.push_back("out" + std::to_string(i));
    KernelInit init{node_, opset_, mode, types_, constants(), {}};
    return create_kernel("", init);
  }
  std::vector<const Tensor*> constants() const {
    std::vector<const Tensor*> c;
    for (size_t i = 0; i < inputs_.size(); ++i) c.push_back(constant_[i] ? &inputs_[i].tensor : nullptr);
    return c;
  }
  TensorOpTest& add_input(Value v, ir::TypeInfo type, bool constant) {
    node_.inputs.push_back("in" + std::to_string(node_.inputs.size()));
    inputs_.push_back(std::move(v));
    types_.push_back(std::move(type));
    present_.push_back(true);
    constant_.push_back(constant);
    return *this;
  }
  template <class F>
  TensorOpTest& add(const std::string& name, ir::Attribute::Type type, F&& set) {
    ir::Attribute a;
    a.name = name;
    a.type = type;
    set(a);
    node_.attributes.push_back(std::move(a));
    return *this;
  }

  ir::Node node_;
  int64_t opset_;
  std::vector<Value> inputs_;
  std::vector<ir::TypeInfo> types_;
  std::vector<bool> present_;
  std::vector<bool> constant_;
  size_t num_outputs_ = 1;
  std::unique_ptr<OpKernel> kernel_;
};

// The values of a tensor as a vector of T (the dtype must match).
template <class T>
std::vector<T> values(const Tensor& t) {
  EXPECT_EQ(t.dtype(), dtype_of<T>());
  if (t.dtype() != dtype_of<T>()) return {};
  const T* p = t.data<T>();
  return std::vector<T>(p, p + t.numel());
}

}  // namespace twinrt::tensor_testing
