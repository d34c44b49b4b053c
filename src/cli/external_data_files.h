// The external-data files a model refers to (TensorProto.external_data "location"),
// found by walking the model's protobuf with the loader's wire reader. `inspect` hashes
// them; the IR does not keep where tensor bytes came from.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "twinrt/status.h"

namespace twinrt::cli {

// Distinct locations in first-seen order, as written in the model (relative paths).
Result<std::vector<std::string>> external_data_locations(std::string_view model_bytes);

}  // namespace twinrt::cli
