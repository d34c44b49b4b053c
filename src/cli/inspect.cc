// `twinrt inspect MODEL`: what a model file contains and whether twinrt can run it.
#include <cstdio>
#include <memory>

#include "cli/command.h"
#include "cli/exit_status.h"
#include "cli/model_card.h"
#include "cli/model_summary.h"
#include "cli/optimized_graph.h"
#include "cli/session_flags.h"
#include "io/file_io.h"

namespace twinrt::cli {
namespace {

struct InspectFlags {
  std::string model;
  std::string markdown_path;
  bool optimized = false;
  std::string mode = "default";
  std::string optimization = "all";
  LimitFlags limits;
};

void print_io(const char* title, const std::vector<IoSummary>& ios) {
  std::printf("%s:\n", title);
  if (ios.empty()) std::printf("  (none)\n");
  for (const IoSummary& io : ios) {
    std::printf("  %s: %s", io.name.c_str(), io.type.c_str());
    for (size_t i = 0; i < io.dynamic_axes.size(); ++i)
      std::printf("%s axis %zu '%s'", i ? "," : "  dynamic:", io.dynamic_axes[i].first,
                  io.dynamic_axes[i].second.c_str());
    std::printf("\n");
  }
}

void print_params(const char* title, const std::vector<ParamGroup>& groups) {
  std::printf("%s: %lld elements, %s\n", title, static_cast<long long>(total_elements(groups)),
              format_bytes(static_cast<uint64_t>(total_bytes(groups))).c_str());
  for (const ParamGroup& p : groups)
    std::printf("  %-10s %lld tensors, %lld elements, %lld bytes\n", dtype_name(p.dtype),
                static_cast<long long>(p.tensors), static_cast<long long>(p.elements), static_cast<long long>(p.bytes));
}

void print_summary(const ModelSummary& s) {
  std::printf("model: %s\n", s.path.c_str());
  std::printf("size: %s (%llu bytes)\n", format_bytes(s.file_size).c_str(),
              static_cast<unsigned long long>(s.file_size));
  std::printf("sha256: %s\n", s.sha256.c_str());
  for (const ExternalFile& f : s.external_files)
    std::printf("external data: %s (%s) sha256 %s\n", f.location.c_str(), format_bytes(f.size).c_str(),
                f.sha256.c_str());
  std::printf("ir_version: %lld\n", static_cast<long long>(s.ir_version));
  if (!s.producer.empty()) std::printf("producer: %s\n", s.producer.c_str());
  if (!s.domain.empty() || s.model_version != 0)
    std::printf("domain: %s  model_version: %lld\n", s.domain.c_str(), static_cast<long long>(s.model_version));
  std::printf("opsets:");
  for (const auto& [domain, version] : s.opsets) std::printf(" %s %lld", domain.c_str(), static_cast<long long>(version));
  std::printf("\n");
  for (const auto& [key, value] : s.metadata) std::printf("metadata: %s = %s\n", key.c_str(), value.c_str());
  print_io("inputs", s.inputs);
  print_io("outputs", s.outputs);

  std::printf("operators: %lld nodes, %zu kinds\n", static_cast<long long>(s.node_count), s.op_histogram.size());
  for (const auto& [op, count] : s.op_histogram) std::printf("  %-32s %lld\n", op.c_str(), static_cast<long long>(count));

  print_params("parameters (initializers)", s.params);
  if (!s.constant_params.empty()) print_params("parameters (Constant nodes)", s.constant_params);

  if (s.unsupported.empty()) {
    std::printf("twinrt support: every operator has a kernel\n");
    return;
  }
  std::printf("not supported by twinrt:\n");
  for (const UnsupportedOp& u : s.unsupported)
    std::printf("  %s (opset %lld): %lld node%s%s\n", u.op.c_str(), static_cast<long long>(u.opset),
                static_cast<long long>(u.nodes), u.nodes == 1 ? "" : "s",
                u.other_opsets_supported ? " (supported at other opsets)" : "");
}

int inspect_model(const InspectFlags& flags) {
  auto mode = parse_mode(flags.mode);
  if (!mode) return report_error(mode.status().with_context("--mode: "));
  auto level = parse_optimization(flags.optimization);
  if (!level) return report_error(level.status().with_context("--optimization: "));
  if (Status st = apply_limit_flags(flags.limits); !st) return report_error(st);
  auto summary = summarize_model(flags.model);
  if (!summary) return report_error(summary.status());
  print_summary(*summary);
  if (flags.optimized) {
    auto graph = optimized_graph(flags.model, *mode, *level);
    if (!graph) return report_error(graph.status());
    print_optimized_graph(*graph);
  }
  if (flags.markdown_path.empty()) return kExitOk;
  Status st = io::write_file_bytes(flags.markdown_path, render_model_card(*summary));
  if (!st) return report_error(st.with_context("--markdown: "));
  std::printf("wrote model card %s\n", flags.markdown_path.c_str());
  return kExitOk;
}

}  // namespace

Command add_inspect_command(CLI::App& root) {
  auto flags = std::make_shared<InspectFlags>();
  CLI::App* cmd = root.add_subcommand("inspect", "describe a model: opsets, inputs/outputs, ops, parameters, hashes");
  cmd->add_option("MODEL", flags->model, "the .onnx file")->required();
  cmd->add_option("--markdown", flags->markdown_path, "also write a model card (Markdown) to FILE");
  cmd->add_flag("--optimized", flags->optimized, "also show the main graph after the graph passes a session runs");
  cmd->add_option("--mode", flags->mode, "with --optimized: default, exact or reference")->capture_default_str();
  cmd->add_option("--optimization", flags->optimization, "with --optimized: none, basic or all")->capture_default_str();
  add_limit_flags(cmd, flags->limits);
  return Command{cmd, [flags] { return inspect_model(*flags); }};
}

}  // namespace twinrt::cli
