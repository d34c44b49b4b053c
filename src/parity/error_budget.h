// The float rounding error to expect in every tensor of a graph, from its dtype and the
// reduction lengths along its path, so a report can say whether a measured gap is
// rounding noise or a bug. The model and its constants are in docs/parity.md.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::parity {

// What the budget needs to know about a tensor's values on the baseline engine.
struct TensorSummary {
  DataType dtype = DataType::kUndefined;
  std::vector<int64_t> shape;
  double max_abs = 0;  // of finite elements
  double rms = 0;
};

// A relative error of 1 means "as large as the values": the first-order model says nothing
// beyond it, so the carried error stops there and is marked saturated.
inline constexpr double kSaturatedRelative = 1.0;

struct ExpectedError {
  int64_t own_reduction_length = 1;   // terms summed per output element by the producing node
  double own_relative = 0;            // this node's own expected relative error
  double relative = 0;                // accumulated along the path from the graph inputs
  double absolute = 0;                // relative * max_abs of the tensor
  bool saturated = false;             // relative reached kSaturatedRelative on the way
  // Empty when estimated; else why the carried error cannot be estimated (a float error
  // rounded to integers by a quantizer or cast upstream). `relative` and `absolute` are 0 then.
  std::string not_estimable;
};

// Walks `graph` in topological order. Returns an entry for every tensor in `values`;
// tensors missing from it (not observed) get no entry but still carry their error to
// their consumers (dtype and shapes then come from initializers and declared types).
// Integer and bool tensors are exact (0) unless produced from floats by a rounding op.
// Fails only on a cyclic graph.
Result<std::map<std::string, ExpectedError>> expected_errors(
    const ir::Graph& graph, const std::map<std::string, TensorSummary>& values);

TensorSummary summarize(const Tensor& t);

}  // namespace twinrt::parity
