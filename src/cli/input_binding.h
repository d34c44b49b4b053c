// Gives every graph input of a session a value: from --input NAME=FILE (.npy or an ONNX
// TensorProto/SequenceProto/OptionalProto .pb), from --test-data DIR (input_<i>.pb in
// graph-input order), or seeded random values of the declared shape. The file reading
// and random generation live in io/input_values.h, shared with the parity toolkit.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "ir/ir.h"
#include "twinrt/session.h"

namespace twinrt::cli {

struct InputFlags {
  std::vector<std::string> inputs;  // NAME=FILE
  std::string test_data_dir;
  uint64_t seed = 0;
};

void add_input_flags(CLI::App* command, InputFlags& flags, bool with_test_data);

struct BoundInput {
  std::string name;
  Value value;
  std::string source;  // where the value came from, for printing
};

// One entry per session input, in Session::inputs() order. Errors name the input and
// the file (dtype or shape mismatch, unknown input name, unreadable file or folder).
Result<std::vector<BoundInput>> bind_inputs(const Session& session, const InputFlags& flags);

std::map<std::string, Value> as_feeds(const std::vector<BoundInput>& inputs);

}  // namespace twinrt::cli
