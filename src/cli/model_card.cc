#include "cli/model_card.h"

#include <filesystem>

#include "cli/version.h"

namespace twinrt::cli {
namespace {

std::string axes_text(const IoSummary& io) {
  if (io.dynamic_axes.empty()) return "none";
  std::string s;
  for (const auto& [axis, name] : io.dynamic_axes)
    s += (s.empty() ? "" : ", ") + std::string("axis ") + std::to_string(axis) + " `" + name + "`";
  return s;
}

std::string io_table(const std::vector<IoSummary>& ios) {
  std::string s = "| name | type | dynamic axes |\n|---|---|---|\n";
  for (const IoSummary& io : ios) s += "| `" + io.name + "` | `" + io.type + "` | " + axes_text(io) + " |\n";
  return s;
}

std::string placeholder(const std::string& what) { return "_To be filled in by the model's owner: " + what + "_\n"; }

}  // namespace

std::string render_model_card(const ModelSummary& s) {
  std::string md = "# " + std::filesystem::path(s.path).filename().string() + "\n\n";
  if (!s.doc.empty()) md += s.doc + "\n\n";
  md += "## File\n\n";
  md += "| | |\n|---|---|\n";
  md += "| size | " + format_bytes(s.file_size) + " (" + std::to_string(s.file_size) + " bytes) |\n";
  md += "| sha256 | `" + s.sha256 + "` |\n";
  for (const ExternalFile& f : s.external_files)
    md += "| external data `" + f.location + "` | " + format_bytes(f.size) + ", sha256 `" + f.sha256 + "` |\n";
  md += "| IR version | " + std::to_string(s.ir_version) + " |\n";
  std::string opsets;
  for (const auto& [domain, version] : s.opsets) opsets += (opsets.empty() ? "" : ", ") + domain + " " + std::to_string(version);
  md += "| opsets | " + opsets + " |\n";
  if (!s.producer.empty()) md += "| producer | " + s.producer + " |\n";
  md += "| parameters | " + std::to_string(total_elements(s.params) + total_elements(s.constant_params)) +
        " (" + format_bytes(static_cast<uint64_t>(total_bytes(s.params) + total_bytes(s.constant_params))) + ") |\n";
  if (!s.unsupported.empty()) {
    std::string ops;
    for (const UnsupportedOp& u : s.unsupported) ops += (ops.empty() ? "" : ", ") + u.op + " (opset " + std::to_string(u.opset) + ")";
    md += "| not supported by twinrt " + std::string(kVersion) + " | " + ops + " |\n";
  }
  md += "\n";

  md += "## Inputs\n\n" + io_table(s.inputs) + "\n";
  md += "## Outputs\n\n" + io_table(s.outputs) + "\n";
  md += "## Preprocessing\n\n" +
        placeholder("how raw data (image, text, audio) becomes the input tensors: resizing, color order, "
                    "normalization mean/std, layout (NCHW/NHWC), tokenization.");
  md += "\n## Postprocessing (kept outside the graph)\n\n" +
        placeholder("what turns the outputs into results: softmax/argmax, label list, box decoding, "
                    "thresholds, non-maximum suppression.");
  md += "\n## Export versions\n\n";
  if (!s.producer.empty()) md += "The file records producer `" + s.producer + "`.\n\n";
  md += placeholder("training framework and version, exporter (e.g. torch.onnx) and its settings, "
                    "checkpoint the file was exported from.");
  return md;
}

}  // namespace twinrt::cli
