// `twinrt`: run, inspect and benchmark ONNX models from the command line.
// See docs/cli.md. Exit codes are in exit_status.h.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>
#include <vector>

#include "cli/command.h"
#include "cli/exit_status.h"
#include "cli/version.h"

namespace twinrt::cli {
namespace {

int main_impl(int argc, char** argv) {
  CLI::App app("twinrt: run, inspect, benchmark and compare ONNX models", "twinrt");
  app.set_version_flag("--version", std::string("twinrt ") + kVersion);
  app.require_subcommand(1);
  const std::vector<Command> commands = {add_run_command(app), add_inspect_command(app),
                                         add_bench_command(app),
                                         add_compare_command(app), add_localize_command(app),
                                         add_quantize_command(app), add_quantize_report_command(app), add_report_command(app), add_pipeline_command(app)};
  // CLI11 would report a mistyped command as "A subcommand is required".
  const bool known_command = argc > 1 && std::any_of(commands.begin(), commands.end(), [&](const Command& c) {
    return c.parser->get_name() == argv[1];
  });
  if (argc > 1 && argv[1][0] != '-' && !known_command) {
    std::fprintf(stderr, "twinrt: error: unknown command '%s' (expected run, inspect, bench, compare, localize, quantize, quantize-report, report or pipeline)\n", argv[1]);
    return kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "twinrt: error: %s\nRun 'twinrt --help' for usage.\n", e.what());
    return kExitBadInput;
  }
  for (const Command& c : commands)
    if (c.parser->parsed()) return c.execute();
  return kExitBadInput;  // unreachable: require_subcommand(1)
}

}  // namespace
}  // namespace twinrt::cli

int main(int argc, char** argv) {
  // twinrt's core reports errors as values; the standard library may still throw
  // (bad_alloc on a huge allocation), and a user must get a message, not an abort.
  try {
    return twinrt::cli::main_impl(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "twinrt: error: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "twinrt: error: %s\n", e.what());
  }
  return twinrt::cli::kExitFailure;
}
