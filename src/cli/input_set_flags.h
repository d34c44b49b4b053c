// The input flags of `twinrt compare` and `twinrt localize`: files, test data, case
// folders, images with a preprocessing spec, random ranges, symbolic dims and the seed,
// turned into a parity::InputSpec (src/parity/inputs.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "parity/inputs.h"

namespace twinrt::cli {

struct InputSetFlags {
  std::vector<std::string> inputs;   // NAME=FILE or FILE.npz
  std::string test_data_dir;
  std::string cases_dir;
  std::vector<std::string> images;   // [NAME=]FILE
  std::string preprocess;            // spec or FILE.json
  std::vector<std::string> ranges;   // NAME=LO:HI
  std::vector<std::string> dims;     // NAME=VALUE
  uint64_t seed = 0;
  // --dim when the command already registered it (add_session_flags): read from there.
  const CLI::Option* shared_dim = nullptr;
};

// Registers the flags. Call after add_session_flags when the command has both, so --dim
// is shared instead of registered twice.
void add_input_set_flags(CLI::App* cmd, InputSetFlags& f);

// Whether the flags name input values (files, test data, cases or images), not only random ones.
bool gives_input_values(const InputSetFlags& f);

// Validates the flags (naming the flag at fault) and builds the spec.
Result<parity::InputSpec> to_input_spec(const InputSetFlags& f);

}  // namespace twinrt::cli
