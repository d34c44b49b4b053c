// What the fusion passes can know about a value before running: its tensor when it is an
// initializer or a Constant node's output, its element type when the graph declares it,
// and the clamp a Relu or Clip node applies when its bounds are such constants.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include "ir/ir.h"

namespace twinrt::passes {

class KnownValues {
 public:
  explicit KnownValues(const ir::Graph& g);

  // An initializer, a Constant node's value, or an Identity's of either (exporters write
  // Identity nodes for initializers that several layers share).
  const Tensor* constant(const std::string& name) const;
  // The initializer or Constant output that `name` is an Identity of (through any chain),
  // else `name` itself.
  std::string source(const std::string& name) const;
  // A float32 constant with `n` elements that no feed can replace (not also a graph input),
  // or null.
  const Tensor* fixed_floats(const std::string& name, int64_t n) const;
  std::optional<float> float_scalar(const std::string& name) const;  // a one-element float32 constant
  // Declared (graph inputs, outputs, value_info), constant, or carried from an input through
  // an op whose output has its input's type (Conv, Add, Sigmoid, ...); kUndefined if unknown.
  DataType dtype(const std::string& name) const;

 private:
  std::map<std::string, const Tensor*> constants_;
  std::map<std::string, std::string> identity_of_;  // Identity output -> its constant source
  std::set<std::string> graph_inputs_;  // a feed may replace these
  std::map<std::string, DataType> declared_;
};

// The clamp a Relu or Clip node applies, when it is known before running.
std::optional<ir::FusedClamp> clamp_of(const ir::Model& model, const KnownValues& known, const ir::Node& n);

}  // namespace twinrt::passes
