// float32 islands of `quantize --fp16` with calibration inputs: the nodes that produce or
// read a value whose magnitude exceeds float16's largest finite value (65504) when the
// float model runs on the cases (a Pow before a ReduceMean, logits before a Softmax, ...)
// keep computing in float32, with Casts where the island meets the float16 graph.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "quantize/quantize.h"

namespace twinrt::quantize {

inline constexpr double kFloat16Max = 65504.0;

struct Fp16Islands {
  std::vector<size_t> nodes;                   // indices into the graph's nodes, in order
  std::map<std::string, double> overflowing;   // value -> largest |v| seen (> kFloat16Max)
  std::set<std::string> float_values;          // float32 values seen or declared
};

// Runs `model` on `cases` with every intermediate exposed. No island when nothing overflows.
Result<Fp16Islands> find_fp16_islands(const ir::Model& model, const std::vector<Feeds>& cases,
                                      const std::function<void(size_t, size_t)>& progress);

// Rewrites the island's edges in `model` (before the float16 conversion): float inputs
// coming from outside go through Cast(to float32), outputs read outside or that are graph
// outputs come out through Cast(to float16). Returns the output names of every node of
// the island, the entry Casts included, which the conversion must leave in float32, and
// adds one line per island node to `summary.skipped`.
Result<std::set<std::string>> mark_fp16_islands(ir::Model& model, const Fp16Islands& islands, QuantizeSummary& summary);

}  // namespace twinrt::quantize
