// A small fluent builder that creates one op kernel and runs it without a model file:
//
//   auto out = OpTest("Gemm", 13).attr("alpha", 2.0f).input(a).input(b).run(Mode::kReference);
//
// It goes through the registry, KernelInit, infer and run exactly as a session does.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "ops/op.h"
#include "kernel_runner.h"

namespace twinrt::testing {

class OpTest {
 public:
  OpTest(std::string op, int64_t opset, std::string domain = "") : opset_(opset) {
    node_.op_type = std::move(op);
    node_.domain = std::move(domain);
    node_.name = "under_test";
  }
  OpTest& attr(const std::string& name, int64_t v) { return add(name, ir::Attribute::Type::kInt, [&](auto& a) { a.i = v; }); }
  OpTest& attr(const std::string& name, int v) { return attr(name, int64_t{v}); }
  OpTest& attr(const std::string& name, float v) { return add(name, ir::Attribute::Type::kFloat, [&](auto& a) { a.f = v; }); }
  OpTest& attr(const std::string& name, const char* v) { return add(name, ir::Attribute::Type::kString, [&](auto& a) { a.s = v; }); }
  OpTest& attr(const std::string& name, std::vector<int64_t> v) { return add(name, ir::Attribute::Type::kInts, [&](auto& a) { a.ints = v; }); }
  OpTest& attr(const std::string& name, std::vector<float> v) { return add(name, ir::Attribute::Type::kFloats, [&](auto& a) { a.floats = v; }); }

  // A runtime input; `constant` makes it visible to the factory as an initializer.
  OpTest& input(Tensor t, bool constant = false) {
    node_.inputs.push_back("in" + std::to_string(node_.inputs.size()));
    inputs_.push_back(Value::of(std::move(t)));
    present_.push_back(true);
    constant_.push_back(constant);
    return *this;
  }
  template <class T>
  OpTest& input(std::vector<int64_t> shape, std::vector<T> values, bool constant = false) {
    auto t = Tensor::from_vector<T>(std::move(shape), values);
    EXPECT_TRUE(t.is_ok()) << t.status().message();
    return input(t.is_ok() ? t.value() : Tensor{}, constant);
  }
  OpTest& missing_input() {
    node_.inputs.push_back("");
    inputs_.emplace_back();
    present_.push_back(false);
    constant_.push_back(false);
    return *this;
  }
  OpTest& outputs(size_t n) {
    num_outputs_ = n;
    return *this;
  }
  const ir::Node& node() const { return node_; }
  // The instruction-set tier the kernel is created for (the session's resolved --isa).
  OpTest& isa(Isa tier) {
    isa_ = tier;
    return *this;
  }

  // Creates the kernel (fails → error), runs infer and run; returns the output tensors.
  Result<std::vector<Tensor>> run(Mode mode, int threads = 1) {
    node_.outputs.clear();
    for (size_t i = 0; i < num_outputs_; ++i) node_.outputs.push_back("out" + std::to_string(i));
    std::vector<ir::TypeInfo> types;
    std::vector<const Tensor*> consts;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      if (!present_[i]) {
        types.emplace_back();
        consts.push_back(nullptr);
        continue;
      }
      const Tensor& t = inputs_[i].tensor;
      types.push_back(ir::TypeInfo::tensor(t.dtype(), ir::shape_of(t.shape())));
      consts.push_back(constant_[i] ? &t : nullptr);
    }
    KernelInit init{node_, opset_, mode, types, consts, {}};
    init.isa = isa_;
    ASSIGN_OR_RETURN(auto kernel, create_kernel(node_.domain, init));
    InferContext ictx{node_, opset_, types, consts, std::vector<ir::TypeInfo>(num_outputs_)};
    TRY(kernel->infer(ictx));
    inferred_ = ictx.output_types;
    ASSIGN_OR_RETURN(auto values, run_kernel(*kernel, inputs_, present_, num_outputs_, mode, threads));
    std::vector<Tensor> out;
    for (auto& v : values) out.push_back(v.tensor);
    return out;
  }
  const std::vector<ir::TypeInfo>& inferred() const { return inferred_; }

 private:
  template <class F>
  OpTest& add(const std::string& name, ir::Attribute::Type type, F&& set) {
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
  std::vector<bool> present_;
  std::vector<bool> constant_;
  size_t num_outputs_ = 1;
  Isa isa_ = Isa::kScalar;
  std::vector<ir::TypeInfo> inferred_;
};

template <class T>
Tensor make(std::vector<int64_t> shape, std::vector<T> values) {
  auto t = Tensor::from_vector<T>(std::move(shape), values);
  EXPECT_TRUE(t.is_ok()) << t.status().message();
  return t.is_ok() ? t.value() : Tensor{};
}

template <class T>
std::vector<T> values_of(const Tensor& t) {
  if (t.dtype() != dtype_of<T>()) {
    ADD_FAILURE() << "dtype " << dtype_name(t.dtype()) << ", expected " << dtype_name(dtype_of<T>());
    return {};
  }
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

// The conformance tolerance: |got - want| <= 1e-7 + 1e-3 * |want|.
inline void expect_close(const Tensor& got, const std::vector<int64_t>& shape,
                         const std::vector<float>& want, double rtol = 1e-3) {
  ASSERT_EQ(got.shape(), shape);
  auto v = values_of<float>(got);
  ASSERT_EQ(v.size(), want.size());
  for (size_t i = 0; i < v.size(); ++i)
    EXPECT_LE(std::fabs(double(v[i]) - want[i]), 1e-7 + rtol * std::fabs(double(want[i])))
        << "element " << i << ": got " << v[i] << ", want " << want[i];
}

inline constexpr Mode kBothModes[] = {Mode::kDefault, Mode::kReference};

}  // namespace twinrt::testing
