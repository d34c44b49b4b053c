// `twinrt bench MODEL --engines A,B,...`: the same inputs on several engines, timed run by
// run in turn so that machine drift (other load, frequency changes) affects all alike.
#pragma once

#include <string>
#include <vector>

#include "cli/input_binding.h"
#include "cli/session_flags.h"

namespace twinrt::cli {

struct BenchEnginesFlags {
  std::string model;
  std::vector<std::string> engines;  // in table order; ratios are to the first that runs
  SessionFlags session;              // --threads and --dim apply to every engine
  std::string graph_optimization;    // ONNX Runtime engines
  InputFlags inputs;
  int runs = 10;
  int warmup = 1;
  bool json = false;
  bool progress = false;  // a progress bar on stderr even when it is not a terminal
};

// Exit code 0 when at least one engine was measured (engines that cannot start, load or
// run are reported and left out), 2 when none was.
int bench_engines(const BenchEnginesFlags& flags);

// "twinrt,ort" -> {"twinrt", "ort"}; empty items are refused.
Result<std::vector<std::string>> split_engine_list(const std::string& list);

}  // namespace twinrt::cli
