// Running a model with and without the graph passes, and comparing the bits: what the
// pass tests (passes_*_test.cc) share.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>

#include "control_model_builder.h"
#include "runtime/session_impl.h"

namespace twinrt {

inline Tensor random_floats(std::vector<int64_t> shape, uint32_t seed, float lo = -8.0f, float hi = 8.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(static_cast<size_t>(shape_numel(shape)));
  for (float& x : v) x = dist(gen);
  return control_testing::make<float>(std::move(shape), v);
}

inline void add_initializer(ir::Graph& g, const std::string& name, Tensor t) {
  g.initializers[name] = std::move(t);
  g.initializer_order.push_back(name);
}

inline ir::Model model_of(ir::Graph g, int64_t opset = 17) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = opset;
  m.graph = std::make_shared<ir::Graph>(std::move(g));
  return m;
}

// Output 'y' of the model in a session with these options.
inline Tensor run_model(ir::Model m, Mode mode, OptimizationLevel level, const std::map<std::string, Tensor>& feeds,
                 int threads = 1, Isa isa = Isa::kAuto) {
  SessionOptions options;
  options.mode = mode;
  options.optimization = level;
  options.threads = threads;
  options.isa = isa;
  auto session = SessionImpl::create(std::move(m), options);
  EXPECT_TRUE(session.is_ok()) << session.status().message();
  if (!session.is_ok()) return {};
  std::map<std::string, Value> values;
  for (const auto& [name, t] : feeds) values[name] = Value::of(t);
  auto out = (*session)->run(values);
  EXPECT_TRUE(out.is_ok()) << out.status().message();
  return out.is_ok() ? out->at("y").tensor : Tensor{};
}

// Float32 or float16 outputs with the same bits, element by element.
inline ::testing::AssertionResult same_bits(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape())
    return ::testing::AssertionFailure() << "shapes " << shape_to_string(a.shape()) << " and " << shape_to_string(b.shape());
  // Any NaN matches any NaN: which operand's NaN an IEEE operation returns is left open
  // (docs/numerics.md), and the compiler may swap a commutative op's operands.
  const size_t size = dtype_size(a.dtype());
  const auto* pa = static_cast<const unsigned char*>(a.raw());
  const auto* pb = static_cast<const unsigned char*>(b.raw());
  for (int64_t i = 0; i < a.numel(); ++i) {
    const bool both_nan = a.dtype() == DataType::kFloat && std::isnan(a.data<float>()[i]) && std::isnan(b.data<float>()[i]);
    if (!both_nan && std::memcmp(pa + i * size, pb + i * size, size) != 0)
      return ::testing::AssertionFailure() << "element " << i << " differs";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace twinrt
