// Pieces both quantizers share.
#pragma once

#include <string>

#include "ir/ir.h"
#include "quantize/quantize.h"
#include "twinrt/status.h"

namespace twinrt::quantize {

// Gives the model its own copy of the main graph (model copies share graphs) and checks
// that there is one. Weights held by Constant nodes (as Paddle2ONNX writes them) become
// initializers of the same name, so the rewriters see every constant weight alike.
Status prepare_graph(ir::Model& model);
// Whether --exclude or --exclude-op names the node.
bool is_excluded(const QuantizeOptions& options, const ir::Node& n);
// "node 'conv1' (Conv)" for summaries and errors.
std::string describe(const ir::Node& n);

}  // namespace twinrt::quantize
