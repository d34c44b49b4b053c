// The work of `twinrt compare` and `twinrt localize` without the printing and exit codes,
// so the Python package (python/) runs exactly what the CLI runs.
#pragma once

#include <string>

#include "cli/compare_flags.h"
#include "parity/report.h"

namespace twinrt::cli {

struct CompareFlags {
  ParityFlags parity;
  std::string baseline;
  std::string policy = "fp32";
  std::string box_format;
  bool preprocess_check = false;
  std::string shard;  // "I/N": only the I-th of N equal, contiguous slices of the cases
};

struct CompareOutcome {
  parity::Report report;
  bool engine_unavailable = false;  // an engine is not installed (the CLI exits 2)
};

// Runs the compare the flags describe. Fails on bad flags, unreadable inputs or models;
// an engine that rejects the model or fails lands in the report.
Result<CompareOutcome> run_compare(const CompareFlags& f);

struct LocalizeFlags {
  ParityFlags parity;
  bool progress = false;  // a progress bar on stderr even when it is not a terminal
};

// Runs the localize the flags describe (exactly two runs).
Result<parity::Report> run_localize(const LocalizeFlags& f);

}  // namespace twinrt::cli
