// Model stages of `twinrt pipeline` on any engine of src/engines (ONNX Runtime native and
// web, twinrt's WebAssembly build), so a pipeline can be run stage for stage elsewhere.
#pragma once

#include "pipeline/model_runner.h"

namespace twinrt::cli {

// twinrt and twinrt-ref run in-process sessions; other names go through engines::make_engine.
Result<std::unique_ptr<pipeline::ModelRunner>> make_engine_runner(const std::string& model_path, const std::string& engine,
                                                                  const SessionOptions& options);

}  // namespace twinrt::cli
