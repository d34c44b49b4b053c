// `twinrt run MODEL`: runs a model once on given or random inputs, prints a summary of
// every output and optionally writes them as .npy files.
#include <cstdio>
#include <memory>

#include "cli/command.h"
#include "cli/exit_status.h"
#include "cli/input_binding.h"
#include "cli/output_writer.h"
#include "cli/session_flags.h"
#include "cli/value_printing.h"

namespace twinrt::cli {
namespace {

struct RunFlags {
  std::string model;
  SessionFlags session;
  InputFlags inputs;
  std::string out_dir;
};

void print_value(const char* role, size_t index, const std::string& name, const Value& v,
                 const std::string& suffix) {
  std::vector<std::string> lines = describe_value(v);
  std::printf("%s %zu '%s': %s%s\n", role, index, name.c_str(), lines[0].c_str(), suffix.c_str());
  for (size_t i = 1; i < lines.size(); ++i) std::printf("%s\n", lines[i].c_str());
}

int run_model(const RunFlags& flags) {
  auto options = to_session_options(flags.session);
  if (!options) return report_error(options.status());
  auto session = Session::load(flags.model, *options);
  if (!session) return report_error(session.status());
  warn_about(**session);
  auto inputs = bind_inputs(**session, flags.inputs);
  if (!inputs) return report_error(inputs.status());
  for (size_t i = 0; i < inputs->size(); ++i) {
    const BoundInput& in = (*inputs)[i];
    print_value("input", i, in.name, in.value, "  <- " + in.source);
  }
  auto results = (*session)->run(as_feeds(*inputs));
  if (!results) return report_error(results.status());
  // Graph-output order, which the result map (keyed by name) does not keep.
  std::vector<std::pair<std::string, Value>> outputs;
  for (const IoInfo& out : (*session)->outputs()) {
    auto it = results->find(out.name);
    outputs.emplace_back(out.name, it == results->end() ? Value() : it->second);
  }
  for (size_t i = 0; i < outputs.size(); ++i) print_value("output", i, outputs[i].first, outputs[i].second, "");
  if (flags.out_dir.empty()) return kExitOk;
  std::vector<std::string> written;
  Status st = write_outputs(flags.out_dir, outputs, &written);
  for (const std::string& path : written) std::printf("wrote %s\n", path.c_str());
  return st ? kExitOk : report_error(st);
}

}  // namespace

Command add_run_command(CLI::App& root) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* cmd = root.add_subcommand("run", "run a model once and summarize its outputs");
  cmd->add_option("MODEL", flags->model, "the .onnx file")->required();
  add_input_flags(cmd, flags->inputs, /*with_test_data=*/true);
  cmd->add_option("--out", flags->out_dir, "write output i as DIR/output_<i>.npy");
  add_session_flags(cmd, flags->session);
  return Command{cmd, [flags] { return run_model(*flags); }};
}

}  // namespace twinrt::cli
