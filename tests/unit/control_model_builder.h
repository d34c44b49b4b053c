// Builds small in-memory models for the control-flow, sequence, RNN, string, random and
// training op tests, and runs them through a real session (compile + execute), so
// nested graphs, sequences and optionals flow exactly as they do from a model file.
//
//   auto g = graph({node("Identity", {"x"}, {"y"})}, {tensor_info("x", DataType::kFloat, {{2}})},
//                  {tensor_info("y", DataType::kFloat)});
//   auto out = run_graph(g, 17, {{"x", Value::of(make<float>({2}, {1, 2}))}});
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/attributes.h"
#include "ir/ir.h"
#include "runtime/session_impl.h"

namespace twinrt::control_testing {

// The attribute builders of ir/attributes.h under the short names these tests use.
inline constexpr auto& int_attr = ir::int_attribute;
inline constexpr auto& ints_attr = ir::ints_attribute;
inline constexpr auto& float_attr = ir::float_attribute;
inline constexpr auto& floats_attr = ir::floats_attribute;
inline constexpr auto& string_attr = ir::string_attribute;
inline constexpr auto& strings_attr = ir::strings_attribute;
inline constexpr auto& graph_attr = ir::graph_attribute;
inline constexpr auto& type_attr = ir::type_attribute;

inline ir::Node node(std::string op, std::vector<std::string> inputs, std::vector<std::string> outputs,
                     std::vector<ir::Attribute> attrs = {}, std::string domain = "") {
  ir::Node n;
  n.op_type = std::move(op);
  n.name = n.op_type + "_node";
  n.inputs = std::move(inputs);
  n.outputs = std::move(outputs);
  n.attributes = std::move(attrs);
  n.domain = std::move(domain);
  return n;
}

inline ir::ValueInfo typed(std::string name, ir::TypeInfo type) { return {std::move(name), std::move(type), {}}; }
inline ir::ValueInfo tensor_info(std::string name, DataType dtype,
                                 std::optional<std::vector<int64_t>> dims = std::nullopt) {
  return typed(std::move(name),
               ir::TypeInfo::tensor(dtype, dims ? std::optional<ir::Shape>(ir::shape_of(*dims)) : std::nullopt));
}
inline ir::ValueInfo sequence_info(std::string name, DataType dtype) {
  return typed(std::move(name), ir::TypeInfo::sequence_of(ir::TypeInfo::tensor(dtype)));
}
inline ir::ValueInfo any_info(std::string name) { return typed(std::move(name), ir::TypeInfo{}); }

inline ir::Graph graph(std::vector<ir::Node> nodes, std::vector<ir::ValueInfo> inputs, std::vector<ir::ValueInfo> outputs,
                       std::string name = "g") {
  ir::Graph g;
  g.name = std::move(name);
  g.nodes = std::move(nodes);
  g.inputs = std::move(inputs);
  g.outputs = std::move(outputs);
  return g;
}

// Compiles `g` as the main graph of a model importing ai.onnx at `opset` (and the
// training domain at version 1) and runs it once.
inline Result<std::map<std::string, Value>> run_graph(const ir::Graph& g, int64_t opset,
                                                      const std::map<std::string, Value>& feeds,
                                                      Mode mode = Mode::kDefault, int threads = 1) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = opset;
  m.opset_imports["ai.onnx.preview.training"] = 1;
  m.graph = std::make_shared<ir::Graph>(g);
  SessionOptions options;
  options.mode = mode;
  options.threads = threads;
  ASSIGN_OR_RETURN(auto session, SessionImpl::create(std::move(m), options));
  return session->run(feeds);
}

template <class T>
Tensor make(std::vector<int64_t> shape, std::vector<T> values) {
  auto t = Tensor::from_vector<T>(std::move(shape), values);
  EXPECT_TRUE(t.is_ok()) << t.status().message();
  return t.is_ok() ? t.value() : Tensor{};
}

template <class T>
Value val(std::vector<int64_t> shape, std::vector<T> values) {
  return Value::of(make<T>(std::move(shape), std::move(values)));
}

template <class T>
std::vector<T> values_of(const Tensor& t) {
  EXPECT_EQ(t.dtype(), dtype_of<T>());
  if (t.dtype() != dtype_of<T>()) return {};
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

}  // namespace twinrt::control_testing
