// One ONNX backend test: model.onnx plus test_data_set_*/{input,output}_<i>.pb.
#pragma once

#include <string>

#include "twinrt/session.h"

namespace twinrt::conformance {

struct Outcome {
  bool passed = false;
  std::string message;  // why it failed
  std::string digest{};  // hash of every output's type, shape and bytes (empty when it failed)
};

// Hex FNV-1a hash of the values' kinds, types, shapes and bytes: equal digests mean
// bit-identical outputs (how the exact mode's identity across ISAs and threads is checked).
std::string digest_values(const std::vector<Value>& values);

// Loads the model, runs every data set and compares the outputs.
Outcome run_test_case(const std::string& dir, const SessionOptions& options);

}  // namespace twinrt::conformance
