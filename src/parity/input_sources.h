// The readers behind build_input_set (inputs.h): each binds some model inputs to tensors
// and says where every tensor came from. Internal to the parity toolkit.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "parity/preprocess.h"
#include "twinrt/session.h"

namespace twinrt::parity {

struct BoundTensor {
  Tensor tensor;
  std::string source;  // "a.npy", "inputs.npz:x", "cases/c1/input_0.pb", "cat.png"
};

// The model's inputs as declarations (tensor inputs only) plus a binding per input.
struct InputBindings {
  const std::vector<ir::ValueInfo>* decls = nullptr;
  std::vector<std::optional<BoundTensor>> bound;

  // Index of the input called `name`; an error listing the inputs names `flag` otherwise.
  Result<size_t> index_of(const std::string& name, const std::string& flag) const;
  // Fails when the input already has a value, naming both sources.
  Status bind(size_t index, Tensor tensor, std::string source);
};

std::string join_names(const std::vector<ir::ValueInfo>& decls);

// Declarations for build_input_set's IoInfo list: symbolic dims given in `dims` become
// fixed, so files are checked against them. Non-tensor inputs are refused.
Result<std::vector<ir::ValueInfo>> tensor_declarations(const std::vector<IoInfo>& inputs,
                                                       const std::map<std::string, int64_t>& dims);

// --input NAME=FILE (.npy, .pb, or one member of an .npz) or FILE.npz (members by name).
Status bind_input_file(const std::string& arg, InputBindings& b);
// --test-data DIR: DIR/input_<i>.pb.
Status bind_test_data(const std::string& dir, InputBindings& b);
// One case folder of --cases: input_<i>.pb and NAME.npy files.
Status bind_case_folder(const std::string& dir, InputBindings& b);
// The case folders of --cases DIR, sorted by name.
Result<std::vector<std::string>> list_case_folders(const std::string& dir);

// --image [NAME=]FILE, split into the input index and the image path.
Result<std::pair<size_t, std::string>> image_target(const std::string& arg, const InputBindings& b);

}  // namespace twinrt::parity
