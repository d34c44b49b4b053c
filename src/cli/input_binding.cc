#include "cli/input_binding.h"

#include <optional>

#include "cli/session_flags.h"
#include "io/input_values.h"
#include "runtime/session_impl.h"

namespace twinrt::cli {
namespace {

std::string join_input_names(const std::vector<IoInfo>& inputs) {
  std::string s;
  for (const IoInfo& in : inputs) s += (s.empty() ? "" : ", ") + in.name;
  return s.empty() ? "none" : s;
}

// Binds DIR/input_<i>.pb to input i; inputs without a file stay unbound.
Status bind_test_data(const std::string& dir, const Session& session, const std::vector<ir::ValueInfo>& decls,
                      std::vector<std::optional<BoundInput>>& bound) {
  auto values = io::load_test_data_folder(dir, decls, session.impl().limits());
  if (!values) return values.status().with_context("--test-data: ");
  for (size_t i = 0; i < decls.size(); ++i)
    if ((*values)[i]) bound[i] = BoundInput{decls[i].name, std::move((*values)[i]->value), (*values)[i]->path};
  return Status::ok();
}

Status bind_input_flags(const std::vector<std::string>& args, const Session& session,
                        const std::vector<ir::ValueInfo>& decls, std::vector<std::optional<BoundInput>>& bound) {
  std::vector<bool> given(decls.size(), false);
  for (const std::string& arg : args) {
    ASSIGN_OR_RETURN(auto assignment, split_assignment(arg, "--input"));
    const auto& [name, path] = assignment;
    size_t index = decls.size();
    for (size_t i = 0; i < decls.size(); ++i)
      if (decls[i].name == name) index = i;
    if (index == decls.size())
      return invalid_argument("--input: the model has no input named '" + name +
                              "' (inputs: " + join_input_names(session.inputs()) + ")");
    if (given[index]) return invalid_argument("--input: input '" + name + "' is given twice");
    given[index] = true;
    ASSIGN_OR_RETURN(Value v, io::load_input_file(path, decls[index], session.impl().limits()));
    bound[index] = BoundInput{name, std::move(v), path};
  }
  return Status::ok();
}

}  // namespace

void add_input_flags(CLI::App* command, InputFlags& flags, bool with_test_data) {
  command->add_option("--input", flags.inputs, "NAME=FILE: input value from a .npy or ONNX .pb file (repeatable)");
  if (with_test_data)
    command->add_option("--test-data", flags.test_data_dir,
                        "folder with input_<i>.pb files for the graph inputs, in order");
  command->add_option("--seed", flags.seed, "seed for the random values of inputs not given")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
}

Result<std::vector<BoundInput>> bind_inputs(const Session& session, const InputFlags& flags) {
  const std::vector<ir::ValueInfo>& decls = session.impl().plan().inputs;
  std::vector<std::optional<BoundInput>> bound(decls.size());
  if (!flags.test_data_dir.empty()) TRY(bind_test_data(flags.test_data_dir, session, decls, bound));
  TRY(bind_input_flags(flags.inputs, session, decls, bound));
  std::vector<BoundInput> result;
  for (size_t i = 0; i < decls.size(); ++i) {
    if (bound[i]) {
      result.push_back(std::move(*bound[i]));
      continue;
    }
    ASSIGN_OR_RETURN(Value v, io::random_value(decls[i].type, session.options().dim_overrides,
                                               io::derive_seed(flags.seed, i), decls[i].name));
    result.push_back(BoundInput{decls[i].name, std::move(v), "random (seed " + std::to_string(flags.seed) + ")"});
  }
  return result;
}

std::map<std::string, Value> as_feeds(const std::vector<BoundInput>& inputs) {
  std::map<std::string, Value> feeds;
  for (const BoundInput& in : inputs) feeds[in.name] = in.value;
  return feeds;
}

}  // namespace twinrt::cli
