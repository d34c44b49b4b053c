// The inputs a comparison runs on: one or more cases, each a value per model input, from
// files (.npy, .npz, ONNX .pb), an ONNX test-data folder, a folder of case folders, seeded
// random data with per-input ranges, or images through a preprocessing spec.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "parity/preprocess.h"
#include "twinrt/session.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::parity {

struct InputCase {
  std::string name;                       // "random", "case_03", "cat.png"
  std::map<std::string, Tensor> tensors;  // one per model input
  std::map<std::string, std::string> sources;  // input -> its file, "random", ... (reports name it)
};

struct InputSpec {
  std::vector<std::string> files;         // NAME=FILE.npy|.pb, or FILE.npz (members by name)
  std::string test_data_dir;              // input_<i>.pb in graph-input order
  std::string cases_dir;                  // one subfolder per case, each like test_data_dir or .npy files named after inputs
  std::vector<std::string> images;        // [NAME=]IMAGE.png|jpg; NAME may be left out for a one-input model
  std::optional<PreprocessSpec> preprocess;  // required with images
  std::map<std::string, std::pair<double, double>> ranges;  // NAME -> [lo, hi) for random data
  std::map<std::string, int64_t> dims;    // symbolic dim values for random data (default 1)
  uint64_t seed = 0;
};

struct InputSet {
  std::vector<InputCase> cases;           // at least one
  std::string description;                // for reports: "random (seed 0, x=0:1)"
  nlohmann::json preprocessing;           // the spec used, null when no images
};

// Inputs not given by any source are random. Errors name the input and the file: unknown
// input name, dtype or fixed-dim mismatch, unreadable file, case folder missing an input.
Result<InputSet> build_input_set(const std::vector<IoInfo>& model_inputs, const InputSpec& spec);

// --range NAME=LO:HI
Result<std::pair<std::string, std::pair<double, double>>> parse_range(const std::string& flag);

}  // namespace twinrt::parity
