// Public C++ API: load a model, inspect its inputs/outputs, run it.
//
//   auto session = twinrt::Session::load("model.onnx", {});
//   if (!session) { std::cerr << session.status().message(); return 2; }
//   auto outputs = (*session)->run({{"x", twinrt::Value::of(x)}});
//
// A Session is immutable after load: `run` may be called many times and from several
// threads at once.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt {

// default: float32 arithmetic, fastest kernels (fused multiply-add, any order the
//   kernel likes): results may differ in the last bits between CPUs.
// exact: fast float32 kernels with one fixed operation sequence per output element (no
//   fused multiply-add): bit-identical across x86 tiers, thread counts and WebAssembly.
// reference: reductions and matrix products accumulate in float64 and round once; own
//   math functions; bit-identical across machines, thread counts and WebAssembly.
// docs/numerics.md states the contract of each.
enum class Mode { kDefault, kReference, kExact };
const char* mode_name(Mode m);
Result<Mode> parse_mode(const std::string& name);

// Which instruction-set tier the fast kernels use. kAuto: the best the CPU supports, or
// the TWINRT_ISA environment variable (avx512, avx2, scalar) when set.
enum class Isa { kAuto, kScalar, kAvx2, kAvx512 };
const char* isa_name(Isa isa);
Result<Isa> parse_isa(const std::string& name);

// Graph passes at load (like ONNX Runtime's graph optimization levels): none; basic,
// the passes that keep every bit (fusing activations into the kernel before them); all,
// also those that change values in the last bits (run in default mode only).
enum class OptimizationLevel { kNone, kBasic, kAll };
const char* optimization_name(OptimizationLevel level);
Result<OptimizationLevel> parse_optimization(const std::string& name);

struct SessionOptions {
  Mode mode = Mode::kDefault;
  int threads = 1;  // intra-op threads; 0 = all hardware threads; at most 256
  Isa isa = Isa::kAuto;  // asking for a tier the CPU lacks fails the load
  OptimizationLevel optimization = OptimizationLevel::kAll;
  // Unknown node attributes (an op does not use them, e.g. a typo 'strdes') are errors;
  // lenient makes them warnings (Session::warnings) and runs with the op's defaults.
  bool lenient = false;
  // Values for symbolic dimensions ("batch" -> 1), used for shape inference at load.
  std::map<std::string, int64_t> dim_overrides;
  // Times every node of the top-level graph on every run (Session::profile): two clock
  // reads per node.
  bool profile = false;
};

// Time one node of the top-level graph took, summed over the runs profiled so far.
struct NodeTime {
  std::string node;  // the node's name, then the names of the model nodes fused into it
  std::string op;
  double total_ms = 0;
};
struct SessionProfile {
  int runs = 0;
  std::vector<NodeTime> nodes;  // in the order they run
};

// Type and shape of a graph input or output as the model declares it.
struct IoInfo {
  std::string name;
  std::string type;             // "tensor", "sequence", "optional", "map", "unknown"
  DataType dtype = DataType::kUndefined;  // tensor element type (sequence/optional: inner tensor)
  bool has_shape = false;       // false: rank unknown
  std::vector<int64_t> dims;    // -1 where the dimension is not a fixed number
  std::vector<std::string> dim_names;  // symbol per dimension ("" when fixed or anonymous)
  std::string describe() const;        // "float32[batch,3,224,224]"
};

class SessionImpl;

class Session {
 public:
  static Result<std::unique_ptr<Session>> load(const std::string& path, const SessionOptions& options);
  static Result<std::unique_ptr<Session>> load_bytes(const void* data, size_t size,
                                                      const SessionOptions& options);
  ~Session();

  const std::vector<IoInfo>& inputs() const;   // graph inputs that are not initializers
  const std::vector<IoInfo>& outputs() const;
  const SessionOptions& options() const;
  // What load accepted with a warning (only with SessionOptions::lenient).
  const std::vector<std::string>& warnings() const;

  // Runs the graph. `feeds` maps input names to values; every non-optional input must be
  // given, and each is checked against its declaration (tensor dtype and fixed dims;
  // sequence element type). Bool tensors may hold any byte: nonzero is true. Returns every
  // graph output by name.
  Result<std::map<std::string, Value>> run(const std::map<std::string, Value>& feeds) const;

  // With SessionOptions::profile: each node's time over the successful runs so far (else
  // no runs and no nodes).
  SessionProfile profile() const;

  SessionImpl& impl() const { return *impl_; }

 private:
  explicit Session(std::unique_ptr<SessionImpl> impl);
  std::unique_ptr<SessionImpl> impl_;
};

}  // namespace twinrt
