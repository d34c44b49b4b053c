// Parsing of Einsum equations ("ij,jk->ik", "...ii->...i", implicit outputs) into label
// ids per axis, with ellipses expanded for the actual input ranks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "twinrt/status.h"

namespace twinrt::nn {

struct EinsumSpec {
  // Label id of every axis of every input and of the output. Letters are ids 0..51
  // ('A'..'Z', 'a'..'z'); the axes an ellipsis stands for are ids 52 onward.
  std::vector<std::vector<int>> inputs;
  std::vector<int> output;
  int num_labels = 0;
};

Result<EinsumSpec> parse_einsum(const std::string& equation, const std::vector<int64_t>& input_ranks);

}  // namespace twinrt::nn
