#include "cli/input_set_flags.h"

#include "cli/session_flags.h"

namespace twinrt::cli {

void add_input_set_flags(CLI::App* cmd, InputSetFlags& f) {
  cmd->add_option("--input", f.inputs,
                  "NAME=FILE (.npy, ONNX .pb, or an .npz member) or FILE.npz (members by input name); repeatable");
  cmd->add_option("--test-data", f.test_data_dir, "ONNX test-data folder: input_<i>.pb for graph input i");
  cmd->add_option("--cases", f.cases_dir,
                  "folder of case folders (each with input_<i>.pb or NAME.npy files); results over all cases");
  cmd->add_option("--image", f.images, "[NAME=]FILE: a PNG or JPEG through --preprocess; one case per image; repeatable");
  cmd->add_option("--preprocess", f.preprocess,
                  "image preprocessing, e.g. short=256,crop=224x224,rgb,scale=0.00392157,"
                  "mean=0.485:0.456:0.406,std=0.229:0.224:0.225,nchw,float32 (or a .json file with those keys)");
  cmd->add_option("--range", f.ranges, "NAME=LO:HI: random values of input NAME in [LO, HI); repeatable");
  if (const CLI::Option* existing = cmd->get_option_no_throw("--dim"))
    f.shared_dim = existing;
  else
    cmd->add_option("--dim", f.dims,
                    "value of a symbolic dimension, NAME=VALUE (repeatable); unnamed ones default to 1");
  cmd->add_option("--seed", f.seed, "seed for the random values of inputs not given")
      ->check(CLI::NonNegativeNumber)->capture_default_str();
}

bool gives_input_values(const InputSetFlags& f) {
  return !f.inputs.empty() || !f.cases_dir.empty() || !f.test_data_dir.empty() || !f.images.empty();
}

Result<parity::InputSpec> to_input_spec(const InputSetFlags& f) {
  parity::InputSpec spec;
  spec.files = f.inputs;
  spec.test_data_dir = f.test_data_dir;
  spec.cases_dir = f.cases_dir;
  spec.images = f.images;
  spec.seed = f.seed;
  if (!f.preprocess.empty()) {
    ASSIGN_OR_RETURN(parity::PreprocessSpec pre, parity::parse_preprocess(f.preprocess));
    spec.preprocess = pre;
  }
  for (const std::string& arg : f.ranges) {
    ASSIGN_OR_RETURN(auto range, parity::parse_range(arg));
    if (!spec.ranges.emplace(range.first, range.second).second)
      return invalid_argument("--range: input '" + range.first + "' is given twice");
  }
  const std::vector<std::string> dims = f.shared_dim ? f.shared_dim->results() : f.dims;
  for (const std::string& arg : dims) {
    ASSIGN_OR_RETURN(auto assignment, split_assignment(arg, "--dim"));
    ASSIGN_OR_RETURN(int64_t value, parse_integer(assignment.second, "--dim " + assignment.first, false));
    spec.dims[assignment.first] = value;
  }
  return spec;
}

}  // namespace twinrt::cli
