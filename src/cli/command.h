// The subcommands of the `twinrt` executable. Each file adds its CLI11 parser to the
// root app and returns the action that main() runs when that subcommand was given.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace twinrt::cli {

struct Command {
  CLI::App* parser = nullptr;
  std::function<int()> execute;  // returns the process exit code
};

Command add_run_command(CLI::App& root);
Command add_inspect_command(CLI::App& root);
Command add_bench_command(CLI::App& root);
Command add_compare_command(CLI::App& root);
Command add_localize_command(CLI::App& root);
Command add_quantize_command(CLI::App& root);
Command add_quantize_report_command(CLI::App& root);
Command add_report_command(CLI::App& root);
Command add_pipeline_command(CLI::App& root);

}  // namespace twinrt::cli
