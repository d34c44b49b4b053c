// `twinrt quantize`: rewrites a float ONNX model into standard quantized ONNX that ONNX
// Runtime also runs (docs/quantization.md).
//   dynamic: int8 weights; MatMul -> DynamicQuantizeLinear + MatMulInteger (+ Cast, Mul),
//            Conv -> DynamicQuantizeLinear + ConvInteger, Gather tables int8 + DequantizeLinear.
//   static:  QDQ format: QuantizeLinear/DequantizeLinear around Conv/MatMul/Gemm with
//            activation ranges from calibration runs (minmax, percentile or entropy).
//   fp16:    float16 initializers and value types, optionally float32 graph inputs/outputs.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ir/ir.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::quantize {

enum class Calibration { kMinMax, kPercentile, kEntropy };

struct QuantizeOptions {
  int weight_limit() const { return reduce_range ? 64 : 127; }
  bool per_channel = false;             // weights: one scale per output channel
  bool reduce_range = false;            // Conv/MatMul/Gemm weights in [-64, 64] (7-bit): exact vpmaddubsw tiles
  std::set<std::string> exclude_nodes;  // node names kept in float
  std::set<std::string> exclude_ops;    // op types kept in float
  Calibration calibration = Calibration::kMinMax;
  double percentile = 99.999;           // kPercentile: the share of |values| kept inside the range
  bool keep_io_types = false;           // fp16: graph inputs and outputs stay float32 (Casts inside)
  bool int8_activations = false;        // static: int8 activations (s8s8) instead of uint8
  bool symmetric_activations = false;   // static: activation ranges ±max|v| (int8 zero point 0, uint8 128)
};

// What a rewrite did, for the command's summary.
struct QuantizeSummary {
  std::map<std::string, int> quantized;           // op type -> nodes quantized
  std::vector<std::string> skipped;               // "node 'x' (Conv): weights are not constant"
  int64_t weights_quantized = 0;                  // elements stored as 8-bit
  std::vector<std::string> quantized_nodes;       // static: names of the nodes quantized, in graph order
  bool target_met = true;                         // --target: whether the search reached it
};

// One calibration case: a value per graph input.
using Feeds = std::map<std::string, Tensor>;

// Rewrites `model` (its main graph) in place. Errors name the node and what is wrong.
Result<QuantizeSummary> quantize_dynamic(ir::Model& model, const QuantizeOptions& options);
// float16 weights and computation; summary.quantized counts the nodes by op type. With
// calibration cases, nodes that touch a value beyond float16's range on them stay float32
// (fp16_islands.h), each listed in summary.skipped.
Result<QuantizeSummary> convert_fp16(ir::Model& model, const QuantizeOptions& options,
                                     const std::vector<Feeds>& calibration = {},
                                     const std::function<void(size_t, size_t)>& progress = nullptr);
// Runs the float model on every case to collect activation ranges, then writes QDQ.
// `progress(done, total)` is called after each case.
Result<QuantizeSummary> quantize_static(ir::Model& model, const QuantizeOptions& options,
                                        const std::vector<Feeds>& calibration,
                                        const std::function<void(size_t, size_t)>& progress);

// The two halves of quantize_static, so one calibration serves several rewrites (the
// sensitivity search re-quantizes with more nodes kept in float: their activations are a
// subset of the ranges calibrated with fewer excluded).
using ActivationRanges = std::map<std::string, std::pair<float, float>>;
Result<ActivationRanges> calibrate_static(const ir::Model& model, const QuantizeOptions& options,
                                          const std::vector<Feeds>& calibration,
                                          const std::function<void(size_t, size_t)>& progress);
Result<QuantizeSummary> write_static_qdq(ir::Model& model, const QuantizeOptions& options,
                                         const ActivationRanges& ranges);

}  // namespace twinrt::quantize
