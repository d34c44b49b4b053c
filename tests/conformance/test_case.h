// One ONNX backend test: model.onnx plus test_data_set_*/{input,output}_<i>.pb.
#pragma once

#include <string>

#include "twinrt/session.h"

namespace twinrt::conformance {

struct Outcome {
  bool passed = false;
  std::string message;  // why it failed
};

// Loads the model, runs every data set and compares the outputs.
Outcome run_test_case(const std::string& dir, const SessionOptions& options);

}  // namespace twinrt::conformance
